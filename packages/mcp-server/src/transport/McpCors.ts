import { Effect } from "effect"
import { HttpMiddleware, HttpRouter, HttpServerRequest } from "effect/http"
import { McpSettings } from "../McpSettings.ts"
import { originForbidden } from "./OriginForbidden.ts"

/** What a browser MCP client sends: the token, the JSON-RPC body, the session, resumption, our ids. */
export const allowedHeaders = [
  "authorization",
  "content-type",
  "accept",
  "mcp-session-id",
  "mcp-protocol-version",
  "last-event-id",
  "x-request-id",
  "x-workspace-id"
]

/** What it must read: the session to send back, the 401 challenge, when to retry, the request's id. */
export const exposedHeaders = [
  "mcp-session-id",
  "mcp-protocol-version",
  "www-authenticate",
  "retry-after",
  "x-request-id"
]

export const allowedMethods = ["GET", "POST", "DELETE", "OPTIONS"]

/** How long a browser may reuse a preflight: Chromium's cap (Firefox allows a day). */
export const maxAgeSeconds = 7200

/**
 * CORS for the MCP routes, for exactly the origins of MCP_ALLOWED_ORIGINS (Effect's own
 * middleware, given only requests from those): a preflight is answered 204 before authentication,
 * and every other answer, whatever layer wrote it (401, 429, an error envelope), carries
 * `Access-Control-Allow-Origin: <origin>` (never `*`) and the exposed headers. A preflight from
 * any other origin is refused with 403 origin_forbidden and no CORS header. Requests without an
 * Origin (agents, SDK clients, curl) pass untouched. No `Allow-Credentials`: the token travels in
 * `Authorization`, which needs no cookies.
 */
export const McpCors = HttpRouter.middleware()(
  Effect.map(McpSettings, (settings) => {
    const isAllowed = (origin: string) => settings.allowedOrigins.includes(origin)
    const cors = HttpMiddleware.cors({
      allowedOrigins: isAllowed,
      allowedMethods,
      allowedHeaders,
      exposedHeaders,
      maxAge: maxAgeSeconds
    })
    return (httpEffect) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        const origin = request.headers.origin
        if (origin === undefined) return httpEffect
        if (isAllowed(origin)) return cors(httpEffect)
        return request.method === "OPTIONS" ? Effect.succeed(originForbidden(origin)) : httpEffect
      })
  })
)
