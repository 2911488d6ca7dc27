import { NodeHttpServer } from "@effect/platform-node"
import { WriteBackOutbox } from "@margin/core/ports/WriteBackOutbox"
import { serveLean } from "@margin/edge/serving"
import { Readiness } from "@margin/edge/telemetry"
import { Jobs, WorkerBackgroundRuns } from "@margin/jobs"
import { McpRoutes, McpSettings, type McpSettingsShape, mcpSettingsConfig } from "@margin/mcp-server"
import { createNodeServer, HttpApp } from "@margin/rest"
import { Effect, Layer } from "effect"
import { serverConfig } from "../config/ServerConfig.ts"
import * as ServerProcess from "../infrastructure/ServerProcess.ts"
import type { ProcessDefinition } from "../lifecycle/Launch.ts"
import * as Logging from "../lifecycle/Logging.ts"
import { ensurePortFree, listenFailureSaid } from "../lifecycle/PortCheck.ts"

export interface AppOptions {
  readonly maxBodyBytes?: number
  /** The MCP front door's settings, when the process has read them already; else from the environment. */
  readonly mcpSettings?: McpSettingsShape
}

/**
 * The REST front door (@margin/rest) with the MCP front door (@margin/mcp-server) mounted beside
 * it on one router, so that one process serves both on one rate budget; a run queued through
 * either wakes this process's run worker (WorkerBackgroundRuns). Needs the use cases, `Readiness`, the ports and
 * the HTTP platform; the test server serves the same (testing/TestServer).
 */
export const app = (options: AppOptions = {}) =>
  HttpApp.layer({
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    beside: {
      layer: McpRoutes.layer.pipe(
        Layer.provide(
          options.mcpSettings === undefined ? McpSettings.layerConfig : McpSettings.layerWith(options.mcpSettings)
        )
      ),
      routes: McpRoutes.routes
    }
  }).pipe(Layer.provide(WorkerBackgroundRuns.layer))

/** Every route `app` serves: its request spans are named by their route templates. */
const routes = HttpApp.routesWith(McpRoutes.routes)

/**
 * The REST server (and the MCP front door on the same router):
 *   ServerInfrastructure (database migrated, PostgreSQL adapters, store router, rate budget)
 *   -> the use cases (core's, Authenticate) + SessionVerifier + Readiness (ServerProcess)
 *   -> `app` (routes, middlewares, response guard) served by Node on HOST:PORT,
 *      and Jobs.layer (@margin/jobs: the background loops of apps/worker, in this process too).
 * SIGTERM / SIGINT interrupt the main fiber: the server stops accepting, lets in-flight requests
 * finish (SHUTDOWN_TIMEOUT, default 20 s), then the layers close in reverse order.
 */
const server = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* serverConfig
    const mcp = yield* mcpSettingsConfig
    const address = { host: config.host, port: config.port, portSetting: "PORT" }
    // Said before the database is opened, rather than after the migrations.
    yield* ensurePortFree(address)
    return Layer.mergeAll(
      // Requests start on the services routes read while answering (/metrics: the outbox's backlog).
      serveLean(app({ maxBodyBytes: config.maxBodyBytes, mcpSettings: mcp }), [WriteBackOutbox]),
      // The background loops (write-back delivery, runs) run in this process too, so `npm start` alone
      // delivers; their deliveries use the WRITE_BACK_* settings, like apps/worker.
      Jobs.layer
    ).pipe(
      Layer.provide(Readiness.layerSql),
      Layer.provide(ServerProcess.useCasesLayer(config)),
      Layer.provide(
        listenFailureSaid(
          NodeHttpServer.layer(
            () => createNodeServer({ corsOrigins: mcp.allowedOrigins, limits: config.connectionLimits }),
            {
              port: config.port,
              host: config.host,
              gracefulShutdownTimeout: config.shutdownTimeout
            }
          ),
          address
        )
      )
    )
  })
)

/** `npm start` / `npm run serve` (apps/http). */
export const definition = {
  layer: server,
  serviceName: "margin-http",
  spanName: HttpApp.spanNameOf(routes),
  logging: Logging.stdout,
  serves: true
} satisfies ProcessDefinition<unknown>
