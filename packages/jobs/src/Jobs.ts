import { Layer } from "effect"
import * as OutboxWorker from "./OutboxWorker.ts"

/**
 * The background loops of the service as one layer, so that `npm start` (the REST app) and every
 * `apps/worker` process run the same ones: the outbox worker delivering approved prices to the
 * stores (OutboxWorker). Configured from the environment; needs the use cases they drive.
 */
export const layer = Layer.mergeAll(OutboxWorker.layer)
