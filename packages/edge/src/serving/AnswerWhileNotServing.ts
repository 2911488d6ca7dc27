import { randomUUID } from "node:crypto"
import type { Server } from "node:http"

const message = "The service is starting or stopping; retry shortly."

export interface NotServingOptions {
  /** Browser origins (MCP_ALLOWED_ORIGINS) that get the CORS headers to read the 503. */
  readonly corsOrigins?: ReadonlyArray<string>
}

/**
 * Answers 503 `service_unavailable` (with `Retry-After`) to the requests that reach `server`
 * while nothing serves them. @effect/platform-node listens as soon as the server layer is built
 * and adds its request handler only once every other layer is (database migrated, use cases
 * wired), and removes it before closing: Node drops a request that no listener answers, so a
 * client calling in those moments would wait until its own timeout. `corsOrigins` (the MCP
 * endpoint's allowed browser origins) get the CORS headers a browser needs to read the 503.
 */
export const answerWhileNotServing = <S extends Server>(server: S, options: NotServingOptions = {}): S => {
  const corsOrigins = new Set(options.corsOrigins ?? [])
  server.on("request", (request, response) => {
    // This listener is the first one; once the platform's handler is added, it answers instead.
    if (server.listenerCount("request") > 1) return
    const requestId = randomUUID()
    const body = JSON.stringify({ code: "service_unavailable", message, request_id: requestId })
    const origin = request.headers.origin
    response.writeHead(503, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "retry-after": "1",
      "x-request-id": requestId,
      connection: "close",
      // A browser client of an allowed origin (MCP_ALLOWED_ORIGINS) may read the answer and retry.
      ...(origin !== undefined && corsOrigins.has(origin)
        ? {
            "access-control-allow-origin": origin,
            "access-control-expose-headers": "retry-after, x-request-id",
            vary: "Origin"
          }
        : {})
    })
    response.end(body)
  })
  return server
}
