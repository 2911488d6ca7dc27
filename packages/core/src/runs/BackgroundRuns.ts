import { Context, type Effect } from "effect"
import type { Run } from "./Run.ts"

/**
 * What a front door does with a run it has just queued: tell this process's run executor to
 * claim now rather than at its next poll (the adapter: WorkerBackgroundRuns of @margin/jobs).
 * The run is executed by whichever worker claims it first, in this process or in another; the
 * request never executes it.
 */
export class BackgroundRuns extends Context.Service<
  BackgroundRuns,
  { readonly start: (run: Run) => Effect.Effect<void> }
>()("margin/core/BackgroundRuns") {}
