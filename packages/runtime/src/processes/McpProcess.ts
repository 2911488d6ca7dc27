import { createServer } from "node:http"
import { NodeHttpServer } from "@effect/platform-node"
import { WriteBackOutbox } from "@margin/core/writeback/WriteBackOutbox"
import { answerOutsideTheApp, limitConnections, mcpPath, serveLean, timeoutOptions } from "@margin/edge/serving"
import { HealthRoutes, MetricsRoute, Readiness, RequestTelemetry } from "@margin/edge/telemetry"
import { WorkerBackgroundRuns } from "@margin/jobs"
import { McpRoutes, McpSettings, mcpSettingsConfig, ProtectedResource, publicUrlAdvice } from "@margin/mcp-server"
import { OAuthLoginSettings, OAuthRoutes } from "@margin/oauth"
import { Config, Effect, Layer } from "effect"
import { mcpServerConfig } from "../config/McpServerConfig.ts"
import * as ServerProcess from "../infrastructure/ServerProcess.ts"
import type { ProcessDefinition } from "../lifecycle/Launch.ts"
import * as Logging from "../lifecycle/Logging.ts"
import { ensurePortFree, listenFailureSaid } from "../lifecycle/PortCheck.ts"

/**
 * The MCP server alone (`npm start` serves it too, beside REST): Streamable HTTP at /mcp, with the
 * OAuth authorization server that issues its tokens (@margin/oauth), on
 * HOST:MCP_PORT, over the same infrastructure as REST (database, store router, shared budget), with
 * /metrics (METRICS_TOKEN), /healthz and /readyz for the operator, and a request id, metrics and a log line per request.
 * Sessions live in this process: behind more than one replica, route by Mcp-Session-Id (docs/mcp.md).
 */
const server = Layer.unwrap(
  Effect.gen(function* () {
    const [config, mcp] = yield* Config.all([mcpServerConfig, mcpSettingsConfig])
    const address = { host: config.host, port: config.port, portSetting: "MCP_PORT" }
    // Said before the database is opened, rather than after the migrations.
    yield* ensurePortFree(address)
    yield* publicUrlAdvice(config.host, mcp)
    // Requests start on the services routes read while answering (as in RestProcess: ServeLean).
    return serveLean(
      Layer.mergeAll(
        McpRoutes.layer,
        OAuthRoutes.layer,
        MetricsRoute.layer,
        HealthRoutes.layer,
        RequestTelemetry.layer([
          mcpPath,
          ProtectedResource.metadataPath,
          `${ProtectedResource.metadataPath}${mcpPath}`,
          "/metrics",
          "/healthz",
          "/readyz"
        ])
      ),
      // /metrics reads the outbox's backlog, /readyz the readiness check. The platform's request logger
      // stays off: RequestTelemetry writes the request's log line.
      [WriteBackOutbox, Readiness]
    ).pipe(
      Layer.provide([
        WorkerBackgroundRuns.layer,
        McpSettings.layerWith(mcp),
        OAuthLoginSettings.layer,
        Readiness.layerSql
      ]),
      Layer.provide(ServerProcess.useCasesLayer(config.infrastructure)),
      Layer.provide(
        listenFailureSaid(
          NodeHttpServer.layer(
            () =>
              answerOutsideTheApp(
                limitConnections(createServer(timeoutOptions(config.connectionLimits)), config.connectionLimits),
                { corsOrigins: mcp.allowedOrigins }
              ),
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

/** `npm run start:mcp` (apps/mcp). */
export const definition = {
  layer: server,
  serviceName: "margin-mcp",
  logging: Logging.stdout,
  serves: true
} satisfies ProcessDefinition<unknown>
