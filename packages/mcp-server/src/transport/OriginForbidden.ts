import { HttpServerResponse } from "effect/http"

/** The refusal of a browser origin that MCP_ALLOWED_ORIGINS does not list (DNS rebinding, CORS preflight). */
export const originForbidden = (origin: string): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe(
    { code: "origin_forbidden", message: `Requests from the origin ${origin} are not allowed.` },
    { status: 403 }
  )
