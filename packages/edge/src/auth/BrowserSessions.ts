import type { UserId } from "@margin/core/kernel/Ids"
import { Context, type Effect } from "effect"
import type { Cookies, HttpServerRequest } from "effect/http"

/** A cookie to set on the answer: name, value and options (HttpOnly, SameSite, Secure, path). */
export type SessionCookie = readonly [name: string, value: string, options: NonNullable<Cookies.Cookie["options"]>]

/** A browser's visit as a first-party page sees it. */
export interface BrowserVisit {
  /** The signed-in user; undefined until the browser signs in. */
  readonly userId: UserId | undefined
  /** The CSRF token of this browser's session: every form carries it. */
  readonly csrf: string
  /** The cookie that starts the session when the browser had none (set it on the answer). */
  readonly cookies: ReadonlyArray<SessionCookie>
  /** This service's origin as configured (else a loopback Host): for links the pages mail. */
  readonly origin: string
}

/**
 * The browser sign-in of the service (the sign-in pages of the OAuth server: e-mail link in
 * development, OIDC in production), as other first-party pages (the console) read it. Its one
 * implementation lives with the sign-in pages; a page door only asks who is signed in and whether
 * a form's CSRF token is this session's own.
 */
export class BrowserSessions extends Context.Service<
  BrowserSessions,
  {
    /** The visit; undefined when the request's Host is not one this service names itself by. */
    readonly visit: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<BrowserVisit | undefined>
    /** Whether `token` is the CSRF token of this browser's current session (constant-time). */
    readonly csrfMatches: (
      request: HttpServerRequest.HttpServerRequest,
      token: string | undefined
    ) => Effect.Effect<boolean>
    /** The sign-in page's path that comes back to `returnTo` (a path of this service) once signed in. */
    readonly signInPath: (returnTo: string) => string
    /** The cookies that end this browser's session (sign-out). */
    readonly signOutCookies: (request: HttpServerRequest.HttpServerRequest) => ReadonlyArray<SessionCookie>
  }
>()("margin/edge/BrowserSessions") {}
