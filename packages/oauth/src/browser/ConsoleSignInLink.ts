import { SignIn } from "@margin/core/oauth/SignIn"
import { Clock, Console, Effect, Layer, Option } from "effect"
import { loginPaths } from "../routes/OAuthLoginRoute.ts"
import { linkToken } from "./OAuthBrowserSession.ts"
import { OAuthLoginSettings } from "./OAuthLoginSettings.ts"

/** The console's address under `origin`. */
export const consoleUrl = (origin: string): string => `${origin}/app`

/**
 * `npm start`'s welcome: the console's address, and a sign-in link for `email` (the demo owner)
 * made with this process's sign-in key, valid 10 minutes and once: it opens the "Continue as"
 * page, whose button signs the browser in and lands on /app. Printed only when sign-in by e-mail
 * link is on (development) and the user exists; else the address alone.
 */
export const announceConsole = (email: string, origin: string) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const login = yield* OAuthLoginSettings
      const user = yield* Effect.orElseSucceed(
        SignIn.use((signIn) => signIn.accountByEmail(email)),
        () => Option.none()
      )
      const lines = [`Console: ${consoleUrl(origin)}`]
      if (login.emailLink && Option.isSome(user)) {
        const link = new URL(`${origin}${loginPaths.link}`)
        link.searchParams.set("token", linkToken(login, user.value.id, yield* Clock.currentTimeMillis))
        link.searchParams.set("return_to", "/app")
        lines.push(`Sign in as ${email} (one click, valid 10 minutes, once): ${link.href}`)
      }
      yield* Console.log(lines.join("\n"))
    })
  )
