import { BrowserSessions } from "@margin/edge/auth"
import { originOf, PublicOrigin } from "@margin/edge/serving"
import { Clock, Effect, Layer } from "effect"
import { loginPaths } from "../routes/OAuthLoginRoute.ts"
import { csrfMatches, csrfOf, sessionCookie, sessionOf, sessionPageCookie } from "./OAuthBrowserSession.ts"
import { OAuthLoginSettings } from "./OAuthLoginSettings.ts"

/**
 * The sign-in pages' browser session offered to the other first-party pages (the console): the
 * same signed cookie, the same session-bound CSRF tokens, the same trusted origin (`originOf`).
 */
export const BrowserSessionsLayer = Layer.effect(
  BrowserSessions,
  Effect.gen(function* () {
    const settings = yield* PublicOrigin
    const login = yield* OAuthLoginSettings
    return BrowserSessions.of({
      visit: (request) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const origin = originOf(settings, request)
          if (origin === undefined) return undefined
          const csrf = csrfOf(login, request, origin, now)
          return {
            userId: sessionOf(login, request, origin, now)?.userId,
            csrf: csrf.token,
            cookies: csrf.cookies,
            origin
          }
        }),
      csrfMatches: (request, token) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const origin = originOf(settings, request)
          return origin !== undefined && csrfMatches(login, request, origin, now, token)
        }),
      signInPath: (returnTo) => `${loginPaths.request}?${new URLSearchParams({ return_to: returnTo }).toString()}`,
      signOutCookies: (request) => {
        const origin = originOf(settings, request)
        return origin === undefined ? [] : [sessionPageCookie(sessionCookie, "", 0, origin)]
      }
    })
  })
)
