import { Launch, WorkerProcess } from "@margin/runtime"

/**
 * A worker (`npm run start:worker`): write-back delivery and analysis runs, without the HTTP front
 * door, with /metrics, /healthz and /readyz on HOST:WORKER_METRICS_PORT (9464). Its wiring is
 * WorkerProcess of @margin/runtime.
 */
Launch.run(WorkerProcess.definition)
