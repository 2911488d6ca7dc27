import { EmailLinks } from "@margin/core/access/EmailLinks"
import { UserId } from "@margin/core/kernel/Ids"
import { Clock, Effect, Layer, Option, Redacted } from "effect"
import { loginPaths } from "../routes/OAuthLoginRoute.ts"
import { linkToken } from "./OAuthBrowserSession.ts"
import { OAuthLoginSettings } from "./OAuthLoginSettings.ts"
import { signValue, verifyValue } from "./SignedValue.ts"

const confirmationLifetimeMs = 24 * 60 * 60_000
const confirmationPurpose = "confirm-email"

/**
 * The links mailed by the use cases, signed with the sign-in key: the sign-in link is the sign-in
 * page's own (one use, 10 minutes); a confirmation link names the user and the address, 24 hours.
 */
export const EmailLinksLayer = Layer.effect(
  EmailLinks,
  Effect.gen(function* () {
    const login = yield* OAuthLoginSettings
    const key = Redacted.value(login.key)
    return EmailLinks.of({
      signIn: (userId, returnTo) =>
        Effect.map(
          Clock.currentTimeMillis,
          (now) =>
            `${loginPaths.link}?${new URLSearchParams({ token: linkToken(login, userId, now), return_to: returnTo }).toString()}`
        ),
      confirmation: (userId, email) =>
        Effect.map(Clock.currentTimeMillis, (now) =>
          signValue(key, confirmationPurpose, `${userId}:${email}`, now + confirmationLifetimeMs)
        ),
      readConfirmation: (token) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const value = verifyValue(key, confirmationPurpose, token, now)
          const separator = value?.indexOf(":") ?? -1
          return value === undefined || separator <= 0
            ? Option.none()
            : Option.some({ userId: UserId.make(value.slice(0, separator)), email: value.slice(separator + 1) })
        })
    })
  })
)
