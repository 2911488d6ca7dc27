import { createServer, type Server, ServerResponse } from "node:http"
import type { ConnectionLimits, NotServingOptions } from "@margin/edge/serving"
import { answerOutsideTheApp, defaultConnectionLimits, limitConnections, timeoutOptions } from "@margin/edge/serving"

/**
 * Node's response, less `strictContentLength`. @effect/platform-node turns it on for every
 * response; Node then ends a response with an extra empty chunk, so headers and body leave in a
 * `writev` that first copies the body into a buffer, instead of one write of the string: for a
 * list of 50 recommendations about 0.06 ms of CPU per request (bench:http). The platform sets
 * `content-length` from the body it writes, so the check it buys has nothing to catch here.
 */
export class OneWriteResponse extends ServerResponse {}
Object.defineProperty(OneWriteResponse.prototype, "strictContentLength", {
  get: () => false,
  set: () => {},
  configurable: true
})

export interface NodeServerOptions extends NotServingOptions {
  /** Timeouts and connection caps (default `defaultConnectionLimits`). */
  readonly limits?: ConnectionLimits
}

/**
 * The REST server's `http.Server` (for `NodeHttpServer.layer`); 503 until the app serves, the
 * error envelope for what is not HTTP, and slow or numerous clients cut (`limits`).
 */
export const createNodeServer = (options: NodeServerOptions = {}): Server => {
  const limits = options.limits ?? defaultConnectionLimits
  return answerOutsideTheApp(
    limitConnections(createServer({ ServerResponse: OneWriteResponse, ...timeoutOptions(limits) }), limits),
    options
  )
}
