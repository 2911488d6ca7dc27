import { Layer } from "effect"
import * as OAuthCleanupWorker from "./OAuthCleanupWorker.ts"
import * as OutboxWorker from "./OutboxWorker.ts"
import { RunWorker } from "./RunWorker.ts"
import * as StoreSyncWorker from "./StoreSyncWorker.ts"

/**
 * The background loops of the service as one layer, so that `npm start` (the REST app) and every
 * `apps/worker` process run the same ones: the outbox worker delivering approved prices to the
 * stores (OutboxWorker), the run worker executing queued analysis runs (RunWorker) and the deletion
 * of expired OAuth codes, tokens and sign-in links every 10 minutes (OAuthCleanupWorker), and the
 * store syncs asked for or due by a workspace's schedule, each followed by a run when the schedule
 * asks for one (StoreSyncWorker). Configured
 * from the environment; needs the use cases they drive. RunWorker.layer is the one value every
 * process uses (WorkerBackgroundRuns too), built once per layer graph; the REST process's router
 * builds its app in a graph of its own (HttpRouter.serve), so there the run worker that requests
 * wake and the one of Jobs.layer are two loops of one process.
 */
export const layer = Layer.mergeAll(
  OutboxWorker.layer,
  RunWorker.layer,
  OAuthCleanupWorker.layer,
  StoreSyncWorker.layer
)
