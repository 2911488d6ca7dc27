import type { Run } from "@margin/core/runs/Run"
import { RunExecutor } from "@margin/core/runs/RunExecutor"
import { RunRepository } from "@margin/core/runs/RunRepository"
import { Cause, Clock, Config, Context, Deferred, Duration, Effect, Layer, Option, Queue, Schema } from "effect"
import { failureBackoff, forkLoops, pauseUnlessStopping } from "./Loops.ts"

export interface RunWorkerOptions {
  /** Run loops in this process, each executing one run at a time; 0 = none (the process only queues runs). */
  readonly concurrency: number
  /** How long a claim keeps other workers off a run: a worker that died holds its run this long. */
  readonly lease: Duration.Input
  /** How often a loop extends the lease of the run it executes; at most a third of `lease` is used. */
  readonly heartbeat: Duration.Input
  /** The pause after a claim that found no run (ended early by `RunWorker.wake`). */
  readonly pollInterval: Duration.Input
  /** The longest pause after consecutive failed claims (database unreachable); doubles up to it. */
  readonly maxErrorBackoff: Duration.Input
  /** On shutdown, how long the runs in progress may take to finish before they are interrupted. */
  readonly drainTimeout: Duration.Input
}

export const defaultRunWorkerOptions: RunWorkerOptions = {
  concurrency: 1,
  lease: Duration.seconds(30),
  heartbeat: Duration.seconds(5),
  pollInterval: Duration.seconds(1),
  maxErrorBackoff: Duration.seconds(10),
  drainTimeout: Duration.seconds(10)
}

const Count = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))

const duration = (name: string, fallback: Duration.Input) =>
  Config.Duration(name).pipe(Config.withDefault(Duration.fromInputUnsafe(fallback)))

/**
 * From the environment: RUN_WORKER_CONCURRENCY (run loops per process, default 1, 0 = none),
 * RUN_LEASE (default "30 seconds"), RUN_HEARTBEAT (default "5 seconds", at most a third of the
 * lease, so that two beats may be late before the lease runs out), RUN_POLL_INTERVAL
 * (default "1 second"), RUN_DRAIN_TIMEOUT (default "10 seconds").
 */
export const runWorkerConfig: Config.Config<RunWorkerOptions> = Config.all({
  concurrency: Config.schema(Count, "RUN_WORKER_CONCURRENCY").pipe(
    Config.withDefault(defaultRunWorkerOptions.concurrency)
  ),
  lease: duration("RUN_LEASE", defaultRunWorkerOptions.lease),
  heartbeat: duration("RUN_HEARTBEAT", defaultRunWorkerOptions.heartbeat),
  pollInterval: duration("RUN_POLL_INTERVAL", defaultRunWorkerOptions.pollInterval),
  maxErrorBackoff: Config.succeed(defaultRunWorkerOptions.maxErrorBackoff),
  drainTimeout: duration("RUN_DRAIN_TIMEOUT", defaultRunWorkerOptions.drainTimeout)
})

/** How an execution ended for the loop that held the run. */
type Held = { readonly _tag: "Finished"; readonly run: Run } | { readonly _tag: "LeaseLost" }

type Round = "ran" | "idle" | "failed"

/**
 * Keeps the lease of `run` for `owner` while it lives: every `heartbeat` it moves the expiry to
 * `lease` from now. Ends when the lease is found taken over (the worker stalled past its lease and
 * another one claimed the run). A heartbeat that fails is tried again at the next beat.
 */
const keepLease = (runs: RunRepository["Service"], run: Run, owner: string, options: RunWorkerOptions) =>
  Effect.gen(function* () {
    const leaseMs = Duration.toMillis(Duration.fromInputUnsafe(options.lease))
    const beat = Math.min(Duration.toMillis(Duration.fromInputUnsafe(options.heartbeat)), leaseMs / 3)
    for (;;) {
      yield* Effect.sleep(Duration.millis(beat))
      const now = yield* Clock.currentTimeMillis
      const held = yield* runs
        .heartbeat(run.id, owner, now + leaseMs)
        .pipe(
          Effect.catchTag("RepositoryError", (error) =>
            Effect.as(Effect.logWarning("run heartbeat failed; trying again", error), true)
          )
        )
      if (!held) return
    }
  })

/**
 * One run loop: claim the oldest queued run (or one whose worker died) with a lease, execute it
 * while a heartbeat keeps the lease, then claim again at once; after `pollInterval` (or a wake)
 * when there was nothing to claim; after a growing pause while claims fail.
 */
export const runLoop = (
  owner: string,
  options: RunWorkerOptions,
  stopping: Deferred.Deferred<void>,
  wakes: Queue.Dequeue<void>
) =>
  Effect.gen(function* () {
    const runs = yield* RunRepository
    const executor = yield* RunExecutor
    const leaseMs = Duration.toMillis(Duration.fromInputUnsafe(options.lease))

    // An execution cut short by shutdown gives its lease back, so that another worker carries on at once.
    const release = (run: Run) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => runs.heartbeat(run.id, owner, now)).pipe(Effect.ignore)

    const execute = (run: Run) =>
      Effect.raceFirst(
        Effect.map(executor.execute(run), (done): Held => ({ _tag: "Finished", run: done })),
        Effect.as(keepLease(runs, run, owner, options), { _tag: "LeaseLost" } as const)
      ).pipe(
        Effect.onInterrupt(() => release(run)),
        Effect.tap((held) =>
          held._tag === "Finished"
            ? Effect.logInfo(`run ${held.run.status}`).pipe(
                Effect.annotateLogs({
                  run: held.run.id,
                  workspace: held.run.workspaceId,
                  status: held.run.status,
                  items: held.run.itemsAnalysed,
                  recommendations: held.run.recommendationsCount,
                  alerts: held.run.alertsCount
                })
              )
            : Effect.logWarning("run lease lost: another worker has taken the run over").pipe(
                Effect.annotateLogs({ run: run.id })
              )
        )
      )

    const round: Effect.Effect<Round> = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const claimed = yield* runs.claimNext(owner, now, now + leaseMs)
      if (Option.isNone(claimed)) return "idle" as const
      yield* Effect.logInfo("run claimed").pipe(Effect.annotateLogs({ run: claimed.value.id }))
      yield* execute(claimed.value)
      return "ran" as const
    }).pipe(
      // A failed claim or execution leaves its run to the lease; the loop itself must live on.
      Effect.catchCause((cause) =>
        Cause.hasInterruptsOnly(cause)
          ? Effect.interrupt
          : Effect.as(Effect.logError("run round failed", cause), "failed" as const)
      )
    )

    let failures = 0
    while (!(yield* Deferred.isDone(stopping))) {
      const result = yield* round
      failures = result === "failed" ? failures + 1 : 0
      if (result === "idle")
        yield* Effect.raceFirst(pauseUnlessStopping(stopping, options.pollInterval), Queue.take(wakes))
      if (result === "failed") {
        yield* pauseUnlessStopping(stopping, failureBackoff(options.pollInterval, failures, options.maxErrorBackoff))
      }
    }
  }).pipe(Effect.annotateLogs({ job: "runs", owner }))

/**
 * The run worker of this process: `concurrency` run loops on fibers of the layer's scope, claiming
 * runs from the database (`FOR UPDATE SKIP LOCKED`), so that any number of processes share the
 * queue. Closing the scope (SIGTERM, SIGINT) lets each loop finish the run in hand within
 * `drainTimeout`, then interrupts it: the run stays `running`, its lease is given back, and the
 * next claim executes it again (RunExecutor is safe to repeat).
 */
export class RunWorker extends Context.Service<
  RunWorker,
  {
    /** Ends an idle loop's pause: a run was just queued, claim it now rather than at the next poll. */
    readonly wake: Effect.Effect<void>
  }
>()("margin/jobs/RunWorker") {
  static readonly layerWith = (options: RunWorkerOptions): Layer.Layer<RunWorker, never, RunRepository | RunExecutor> =>
    Layer.effect(
      RunWorker,
      Effect.gen(function* () {
        const wakes = yield* Queue.dropping<void>(Math.max(1, options.concurrency))
        const owners = yield* forkLoops(
          {
            job: "runs",
            concurrency: options.concurrency,
            drainTimeout: options.drainTimeout,
            cutShort: "its lease is given back and the next claim carries the run on"
          },
          (owner, stopping) => runLoop(owner, options, stopping, wakes)
        )
        yield* Effect.logInfo("run worker started").pipe(
          Effect.annotateLogs({
            job: "runs",
            owners: owners.join(","),
            lease: Duration.format(Duration.fromInputUnsafe(options.lease)),
            pollInterval: Duration.format(Duration.fromInputUnsafe(options.pollInterval))
          })
        )
        return RunWorker.of({ wake: Effect.asVoid(Queue.offer(wakes, undefined)) })
      })
    )

  /** The run worker configured by `runWorkerConfig`. */
  static readonly layer: Layer.Layer<RunWorker, Config.ConfigError, RunRepository | RunExecutor> = Layer.unwrap(
    Effect.map(runWorkerConfig, RunWorker.layerWith)
  )
}
