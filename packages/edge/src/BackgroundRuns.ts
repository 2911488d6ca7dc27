import type { Run } from "@margin/core/Run"
import { RunExecutor } from "@margin/core/RunExecutor"
import { Cause, Context, Effect, FiberSet, Layer } from "effect"

/**
 * Executes triggered runs in this process, after the 202 has been sent, on fibers owned by the
 * server (not by the request). Shutdown interrupts them; a run cut short stays `running` until
 * its lease expires and a worker executes it again (RunExecutor is safe to repeat).
 */
export class BackgroundRuns extends Context.Service<
  BackgroundRuns,
  { readonly start: (run: Run) => Effect.Effect<void> }
>()("margin/edge/BackgroundRuns") {
  static readonly layer = Layer.effect(
    BackgroundRuns,
    Effect.gen(function* () {
      const executor = yield* RunExecutor
      const fibers = yield* FiberSet.make<void, never>()
      const execute = (run: Run) =>
        executor.execute(run).pipe(
          Effect.flatMap((done) =>
            Effect.logInfo("run finished").pipe(Effect.annotateLogs({ run: done.id, status: done.status }))
          ),
          Effect.catchCause((cause) =>
            Cause.hasInterruptsOnly(cause)
              ? Effect.logInfo("run interrupted by shutdown").pipe(Effect.annotateLogs({ run: run.id }))
              : Effect.logError("run execution failed", cause).pipe(Effect.annotateLogs({ run: run.id }))
          )
        )
      return BackgroundRuns.of({ start: (run) => Effect.asVoid(FiberSet.run(fibers, execute(run))) })
    })
  )
}
