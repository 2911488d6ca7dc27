import { NodeHttpServer, NodeRuntime, NodeServices } from "@effect/platform-node"
import { WriteBackOutbox } from "@margin/core/ports/WriteBackOutbox"
import { stdoutJsonLogger } from "@margin/edge/JsonLinesLogger"
import * as ProcessExit from "@margin/edge/ProcessExit"
import { serveLean } from "@margin/edge/ServeLean"
import * as ServerInfrastructure from "@margin/edge/ServerInfrastructure"
import { SessionVerifier } from "@margin/edge/SessionJwt"
import { explainStartFailure } from "@margin/edge/StartupFailure"
import * as ServerTracing from "@margin/edge/Tracing"
import { UseCasesLayer } from "@margin/edge/UseCases"
import { tuneV8ForServing } from "@margin/edge/V8Tuning"
import * as DeliverySettings from "@margin/jobs/DeliverySettings"
import * as Jobs from "@margin/jobs/Jobs"
import { mcpSettingsConfig } from "@margin/mcp-server/McpSettings"
import { Config, Effect, Layer, Logger, References } from "effect"
import * as HttpApp from "./HttpApp.ts"
import { createNodeServer } from "./NodeServer.ts"
import { Readiness } from "./Readiness.ts"
import { serverConfig } from "./ServerConfig.ts"

/**
 * The REST server (and the MCP front door on the same router):
 *   ServerInfrastructure (database migrated, PostgreSQL adapters, store router, rate budget)
 *   -> UseCasesLayer (core use cases, Authenticate, Approval) + SessionVerifier + Readiness
 *   -> HttpApp (routes, middlewares, response guard) served by Node on HOST:PORT,
 *      and Jobs.layer (@margin/jobs: the background loops of apps/worker, in this process too).
 * SIGTERM / SIGINT interrupt the main fiber: the server stops accepting, lets in-flight requests
 * finish (SHUTDOWN_TIMEOUT, default 20 s), then the layers close in reverse order.
 */
const Server = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* serverConfig
    const mcp = yield* mcpSettingsConfig
    return Layer.mergeAll(
      // Requests start on the services routes read while answering (/metrics: the outbox's backlog).
      serveLean(HttpApp.layer({ maxBodyBytes: config.maxBodyBytes, mcpSettings: mcp }), [WriteBackOutbox]),
      // The background loops (write-back delivery, runs) run in this process too, so `npm start` alone
      // delivers; their deliveries use the WRITE_BACK_* settings, like apps/worker.
      Jobs.layer.pipe(Layer.provide(DeliverySettings.layer))
    ).pipe(
      Layer.provide([UseCasesLayer, Readiness.layerSql]),
      Layer.provide(SessionVerifier.layer.pipe(Layer.provide(NodeServices.layer))),
      Layer.provideMerge(ServerInfrastructure.layer(config)),
      Layer.provide(
        NodeHttpServer.layer(() => createNodeServer({ corsOrigins: mcp.allowedOrigins }), {
          port: config.port,
          host: config.host,
          gracefulShutdownTimeout: config.shutdownTimeout
        })
      )
    )
  })
)

/** One JSON line per log entry on stdout (written once per event-loop turn), at LOG_LEVEL (default Info). */
const Logging = Layer.unwrap(
  Effect.map(Config.LogLevel("LOG_LEVEL").pipe(Config.withDefault("Info")), (level) =>
    Layer.mergeAll(Logger.layer([stdoutJsonLogger]), Layer.succeed(References.MinimumLogLevel, level))
  )
)

/** Spans over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md, Tracing). */
const Tracing = ServerTracing.layer({ serviceName: "margin-http", spanName: HttpApp.spanName })

// Before any request: request objects stay young, request code reaches TurboFan early (V8Tuning).
tuneV8ForServing()

/** Once everything is up: how long the start took, from the process's own start (module loading included). */
const sayReady = Effect.suspend(() =>
  Effect.logInfo(`margin-service ready in ${Math.round(process.uptime() * 1000)} ms`)
)

Layer.launch(
  Server.pipe(
    Layer.provide(Tracing),
    Layer.tap(() => sayReady)
  )
).pipe(
  explainStartFailure,
  Effect.provide(Logging),
  NodeRuntime.runMain({ disableErrorReporting: true, teardown: ProcessExit.teardown })
)
