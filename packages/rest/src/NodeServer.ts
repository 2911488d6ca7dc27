import { createServer, type Server, ServerResponse } from "node:http"
import type { NotServingOptions } from "@margin/edge/serving"
import { answerOutsideTheApp } from "@margin/edge/serving"

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

/**
 * The REST server's `http.Server` (for `NodeHttpServer.layer`); 503 until the app serves, and the
 * error envelope for what is not HTTP.
 */
export const createNodeServer = (options: NotServingOptions = {}): Server =>
  answerOutsideTheApp(createServer({ ServerResponse: OneWriteResponse }), options)
