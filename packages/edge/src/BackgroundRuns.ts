import type { Run } from "@margin/core/Run"
import { RunWorker } from "@margin/jobs/RunWorker"
import { Context, type Effect, Layer } from "effect"

/**
 * What a front door does with a run it has just queued: nothing but tell this process's run worker
 * (RunWorker of @margin/jobs, which the layer brings along) to claim now rather than at its next
 * poll. The run is executed by whichever worker claims it first, in this process or in an
 * `apps/worker` process; the request never executes it.
 */
export class BackgroundRuns extends Context.Service<
  BackgroundRuns,
  { readonly start: (run: Run) => Effect.Effect<void> }
>()("margin/edge/BackgroundRuns") {
  static readonly layer = Layer.effect(
    BackgroundRuns,
    RunWorker.useSync((worker) => BackgroundRuns.of({ start: () => worker.wake }))
  ).pipe(Layer.provide(RunWorker.layer))
}
