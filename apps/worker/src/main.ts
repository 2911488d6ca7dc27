import * as Launch from "@margin/runtime/process/Launch"
import * as WorkerProcess from "@margin/runtime/processes/WorkerProcess"

/**
 * A worker (`npm run start:worker`): write-back delivery and analysis runs, without the HTTP front
 * door, with /metrics, /healthz and /readyz on HOST:WORKER_METRICS_PORT (9464). Its wiring is
 * WorkerProcess of @margin/runtime.
 */
Launch.run(WorkerProcess.definition)
