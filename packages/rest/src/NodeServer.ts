import { createServer, type Server } from "node:http"
import type { ConnectionLimits, NotServingOptions } from "@margin/edge/serving"
import { answerOutsideTheApp, defaultConnectionLimits, limitConnections, timeoutOptions } from "@margin/edge/serving"

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
  return answerOutsideTheApp(limitConnections(createServer(timeoutOptions(limits)), limits), options)
}
