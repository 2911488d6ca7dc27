/**
 * @margin/jobs: the background loops (write-back delivery, run execution, OAuth cleanup, store syncs) and the BackgroundRuns
 * adapter that wakes this process's run worker. Its test kit is under "@margin/jobs/testing/*".
 */
export * as DeliverySettings from "./DeliverySettings.ts"
export * as Jobs from "./Jobs.ts"
export { defaultRunWorkerOptions, RunWorker, type RunWorkerOptions } from "./RunWorker.ts"
export * as StoreSyncWorker from "./StoreSyncWorker.ts"
export * as WorkerBackgroundRuns from "./WorkerBackgroundRuns.ts"
