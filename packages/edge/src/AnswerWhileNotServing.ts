import { randomUUID } from "node:crypto"
import type { Server } from "node:http"

const message = "The service is starting or stopping; retry shortly."

/**
 * Answers 503 `service_unavailable` (with `Retry-After`) to the requests that reach `server`
 * while nothing serves them. @effect/platform-node listens as soon as the server layer is built
 * and adds its request handler only once every other layer is (database migrated, use cases
 * wired), and removes it before closing: Node drops a request that no listener answers, so a
 * client calling in those moments would wait until its own timeout.
 */
export const answerWhileNotServing = <S extends Server>(server: S): S => {
  server.on("request", (_request, response) => {
    // This listener is the first one; once the platform's handler is added, it answers instead.
    if (server.listenerCount("request") > 1) return
    const requestId = randomUUID()
    const body = JSON.stringify({ code: "service_unavailable", message, request_id: requestId })
    response.writeHead(503, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "retry-after": "1",
      "x-request-id": requestId,
      connection: "close"
    })
    response.end(body)
  })
  return server
}
