import { RunExecutor } from "@margin/core/runs/RunExecutor"
import { Readiness } from "@margin/edge/telemetry"
import { DeliverySettings, Jobs } from "@margin/jobs"
import { Effect, Layer } from "effect"
import { workerConfig } from "../config/WorkerConfig.ts"
import * as ServerInfrastructure from "../infrastructure/ServerInfrastructure.ts"
import * as StoreSyncUseCases from "../infrastructure/StoreSyncUseCases.ts"
import type { ProcessDefinition } from "../lifecycle/Launch.ts"
import * as Logging from "../lifecycle/Logging.ts"
import * as OperationsServer from "../lifecycle/OperationsServer.ts"

/**
 * A worker process: the background loops of Jobs.layer (write-back delivery, analysis runs, store syncs) without
 * the HTTP front door, as many processes as the load needs, all on one database:
 *   Database (DATABASE_URL, else the embedded one in DATA_DIR), migrated at start
 *   -> PostgreSQL adapters + store router (sandbox, Shopify): ServerInfrastructure.workerLayer
 *   -> use cases (WriteBackDelivery with WRITE_BACK_* settings, RunExecutor)
 *   -> Jobs.layer (OUTBOX_CONCURRENCY delivery loops, OUTBOX_* settings; RUN_WORKER_CONCURRENCY run
 *      loops, RUN_* settings; STORE_SYNC_CONCURRENCY sync loops that also queue the schedules' slots,
 *      STORE_SYNC_* and SCHEDULE_* settings), and /metrics, /healthz, /readyz on HOST:WORKER_METRICS_PORT (9464).
 * SIGTERM / SIGINT close the layers: the loops finish the deliveries in hand (OUTBOX_DRAIN_TIMEOUT)
 * and stop; anything cut short is delivered again by another worker once its lease expires.
 */
const worker = Layer.unwrap(
  Effect.map(workerConfig, (config) =>
    Layer.mergeAll(
      Jobs.layer.pipe(Layer.provide([DeliverySettings.layer, RunExecutor.layer, StoreSyncUseCases.layer])),
      config.metricsPort === 0
        ? Layer.empty
        : OperationsServer.layer({ host: config.host, port: config.metricsPort }).pipe(
            Layer.provide(Readiness.layerSql)
          )
    ).pipe(Layer.provide(ServerInfrastructure.workerLayer))
  )
)

/** `npm run start:worker` (apps/worker). */
export const definition = {
  layer: worker,
  serviceName: "margin-worker",
  logging: Logging.stdout,
  serves: true
} satisfies ProcessDefinition<unknown>
