import { NodeRuntime } from "@effect/platform-node"
import { RunExecutor } from "@margin/core/RunExecutor"
import * as ObservedPorts from "@margin/edge/ObservedPorts"
import * as OperationsServer from "@margin/edge/OperationsServer"
import * as ProcessExit from "@margin/edge/ProcessExit"
import { Readiness } from "@margin/edge/Readiness"
import * as ServerTracing from "@margin/edge/Tracing"
import { tuneV8ForServing } from "@margin/edge/V8Tuning"
import * as DeliverySettings from "@margin/jobs/DeliverySettings"
import * as Jobs from "@margin/jobs/Jobs"
import * as Database from "@margin/postgres/Database"
import * as Migrations from "@margin/postgres/Migrations"
import * as PgAdapters from "@margin/postgres/PgAdapters"
import * as StoreRouter from "@margin/stores/StoreRouter"
import { Cause, Config, Effect, Layer, Logger, References } from "effect"
import { workerConfig } from "./WorkerConfig.ts"

/**
 * A worker process: the background loops of Jobs.layer (write-back delivery, analysis runs) without
 * the HTTP front door, as many processes as the load needs, all on one database:
 *   Database (DATABASE_URL, else the embedded one in DATA_DIR), migrated at start
 *   -> PostgreSQL adapters + store router (sandbox, Shopify)
 *   -> use cases (WriteBackDelivery with WRITE_BACK_* settings, RunExecutor)
 *   -> Jobs.layer (OUTBOX_CONCURRENCY delivery loops, OUTBOX_* settings; RUN_WORKER_CONCURRENCY run
 *      loops, RUN_* settings), and /metrics, /healthz, /readyz on HOST:WORKER_METRICS_PORT (9464).
 * SIGTERM / SIGINT close the layers: the loops finish the deliveries in hand (OUTBOX_DRAIN_TIMEOUT)
 * and stop; anything cut short is delivered again by another worker once its lease expires.
 */
const Worker = Layer.unwrap(
  Effect.map(workerConfig, (config) =>
    Layer.mergeAll(
      Jobs.layer.pipe(Layer.provide([DeliverySettings.layer, RunExecutor.layer])),
      config.metricsPort === 0
        ? Layer.empty
        : OperationsServer.layer({ host: config.host, port: config.metricsPort }).pipe(
            Layer.provide(Readiness.layerSql)
          )
    ).pipe(
      Layer.provide(
        // The run repository and the outbox counted into the metrics (ObservedPorts), as in the REST server.
        Layer.mergeAll(StoreRouter.layerLive, ObservedPorts.layer).pipe(
          Layer.provideMerge(PgAdapters.layer),
          Layer.provide(Migrations.layer),
          Layer.provideMerge(Database.layer)
        )
      )
    )
  )
)

/** One JSON line per log entry, at LOG_LEVEL (default Info), like the REST server. */
const Logging = Layer.unwrap(
  Effect.map(Config.LogLevel("LOG_LEVEL").pipe(Config.withDefault("Info")), (level) =>
    Layer.mergeAll(Logger.layer([Logger.consoleJson]), Layer.succeed(References.MinimumLogLevel, level))
  )
)

/** A start that fails (bad configuration, unreachable database) is logged in one line before the exit. */
const explained = <A, E, R>(program: Effect.Effect<A, E, R>) =>
  Effect.tapCause(program, (cause) =>
    Cause.hasInterruptsOnly(cause)
      ? Effect.void
      : Effect.logError("margin-worker stopped on a failure", Cause.squash(cause))
  )

/** Spans over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md, Tracing). */
const Tracing = ServerTracing.layer({ serviceName: "margin-worker" })

// Before any request: request objects stay young, request code reaches TurboFan early (V8Tuning).
tuneV8ForServing()

Layer.launch(Worker.pipe(Layer.provide(Tracing))).pipe(
  explained,
  Effect.provide(Logging),
  NodeRuntime.runMain({ disableErrorReporting: true, teardown: ProcessExit.teardown })
)
