import { createServer } from "node:http"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { WriteBackOutbox } from "@margin/core/ports/WriteBackOutbox"
import { answerOutsideTheApp } from "@margin/edge/AnswerOutsideTheApp"
import * as HealthRoutes from "@margin/edge/HealthRoutes"
import * as MetricsRoute from "@margin/edge/MetricsRoute"
import * as ProcessExit from "@margin/edge/ProcessExit"
import { Readiness } from "@margin/edge/Readiness"
import * as RequestTelemetry from "@margin/edge/RequestTelemetry"
import { serveLean } from "@margin/edge/ServeLean"
import * as ServerProcess from "@margin/edge/ServerProcess"
import { explainStartFailure } from "@margin/edge/StartupFailure"
import * as ServerTracing from "@margin/edge/Tracing"
import { tuneV8ForServing } from "@margin/edge/V8Tuning"
import * as WorkerBackgroundRuns from "@margin/jobs/WorkerBackgroundRuns"
import * as McpRoutes from "@margin/mcp-server/McpRoutes"
import { McpSettings, mcpSettingsConfig } from "@margin/mcp-server/McpSettings"
import * as ProtectedResource from "@margin/mcp-server/ProtectedResource"
import { Config, Effect, Layer } from "effect"
import { mcpServerConfig } from "./McpServerConfig.ts"

/**
 * The MCP server alone (`npm start` serves it too, beside REST): Streamable HTTP at /mcp on
 * HOST:MCP_PORT, over the same infrastructure as REST (database, store router, shared budget), with
 * /metrics (METRICS_TOKEN), /healthz and /readyz for the operator, and a request id, metrics and a log line per request.
 * Sessions live in this process: behind more than one replica, route by Mcp-Session-Id (docs/mcp.md).
 */
const Server = Layer.unwrap(
  Effect.map(Config.all([mcpServerConfig, mcpSettingsConfig]), ([config, mcp]) =>
    // Requests start on the services routes read while answering (as in apps/http: ServeLean).
    serveLean(
      Layer.mergeAll(
        McpRoutes.layer,
        MetricsRoute.layer,
        HealthRoutes.layer,
        RequestTelemetry.layer([
          ProtectedResource.mcpPath,
          ProtectedResource.metadataPath,
          `${ProtectedResource.metadataPath}${ProtectedResource.mcpPath}`,
          "/metrics",
          "/healthz",
          "/readyz"
        ])
      ),
      // /metrics reads the outbox's backlog, /readyz the readiness check. The platform's request logger
      // stays off: RequestTelemetry writes the request's log line.
      [WriteBackOutbox, Readiness]
    ).pipe(
      Layer.provide([WorkerBackgroundRuns.layer, McpSettings.layerWith(mcp), Readiness.layerSql]),
      Layer.provide(ServerProcess.useCasesLayer(config.infrastructure)),
      Layer.provide(
        NodeHttpServer.layer(() => answerOutsideTheApp(createServer(), { corsOrigins: mcp.allowedOrigins }), {
          port: config.port,
          host: config.host,
          gracefulShutdownTimeout: config.shutdownTimeout
        })
      )
    )
  )
)

/** Spans over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md, Tracing). */
const Tracing = ServerTracing.layer({ serviceName: "margin-mcp" })

// Before any request: request objects stay young, request code reaches TurboFan early (V8Tuning).
tuneV8ForServing()

// A start that fails (bad setting, unreachable database) says why in one line, then exits 1.
Layer.launch(Server.pipe(Layer.provide(Tracing))).pipe(
  explainStartFailure,
  Effect.provide(ServerProcess.loggingLayer),
  NodeRuntime.runMain({ disableErrorReporting: true, teardown: ProcessExit.teardown })
)
