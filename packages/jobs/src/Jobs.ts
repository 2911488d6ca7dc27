import { Layer } from "effect"
import * as OutboxWorker from "./OutboxWorker.ts"
import { RunWorker } from "./RunWorker.ts"

/**
 * The background loops of the service as one layer, so that `npm start` (the REST app) and every
 * `apps/worker` process run the same ones: the outbox worker delivering approved prices to the
 * stores (OutboxWorker) and the run worker executing queued analysis runs (RunWorker). Configured
 * from the environment; needs the use cases they drive. RunWorker.layer is the one value every
 * process uses (WorkerBackgroundRuns too), so a process that names it twice builds it once.
 */
export const layer = Layer.mergeAll(OutboxWorker.layer, RunWorker.layer)
