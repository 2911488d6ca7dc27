import type { SessionCookie } from "@margin/edge/auth"
import type { Effect } from "effect"
import type { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { Answer, InWorkspace } from "./ConsoleGate.ts"
import type { PageContext } from "./ConsolePage.ts"

export type { Answer, InWorkspace }

/** A console route's handler: the page or the redirect it answers. */
export type ConsoleHandler<E> = (
  request: HttpServerRequest.HttpServerRequest
) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, HttpRouter.Provided>

/**
 * What every console route starts with, as ConsoleRoutes builds it once for all pages: the signed-in
 * person in the route's workspace (charged one unit of their rate budget; 404 for a workspace that is
 * not theirs), a posted form with its CSRF token checked (403 without), and the answers pages share.
 */
export interface ConsoleKit<E> {
  readonly inWorkspace: (
    request: HttpServerRequest.HttpServerRequest,
    current: PageContext["current"]
  ) => Effect.Effect<Answer | InWorkspace, E, HttpRouter.Provided>
  readonly posted: (
    request: HttpServerRequest.HttpServerRequest,
    current: PageContext["current"]
  ) => Effect.Effect<Answer | (InWorkspace & { readonly form: URLSearchParams }), E, HttpRouter.Provided>
  /** Whether a path segment is an id as this service makes them (anything else names nothing: 404). */
  readonly isId: (text: string) => boolean
  readonly redirect: (location: string) => HttpServerResponse.HttpServerResponse
  readonly notFound: (context: PageContext) => HttpServerResponse.HttpServerResponse
  /** The session's refreshed cookies on a page's answer. */
  readonly withCookies: (
    response: HttpServerResponse.HttpServerResponse,
    cookies: ReadonlyArray<SessionCookie>
  ) => HttpServerResponse.HttpServerResponse
}

/** A page's query string. */
export const queryOf = (request: HttpServerRequest.HttpServerRequest): URLSearchParams =>
  new URL(request.url, "http://localhost").searchParams
