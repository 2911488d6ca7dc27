import { SyncSchedules } from "@margin/core/schedules/SyncSchedules"
import { StoreSyncJobs } from "@margin/core/stores/StoreSyncJobs"
import { Cause, Clock, Config, Deferred, Duration, Effect, Layer, Option, Schema } from "effect"
import { PositiveDuration } from "./DeliverySettings.ts"
import { failureBackoff, forkLoops, pauseUnlessStopping } from "./Loops.ts"

export interface StoreSyncWorkerOptions {
  /** Sync loops in this process, each doing one sync at a time; 0 = none. */
  readonly concurrency: number
  /** The pause after a round that found no sync to do. */
  readonly pollInterval: Duration.Input
  /** How often a loop looks for schedule slots that have come (queueing one twice is prevented by the database). */
  readonly scheduleInterval: Duration.Input
  /** The longest pause after consecutive failed rounds (database unreachable); doubles up to it. */
  readonly maxErrorBackoff: Duration.Input
  /** On shutdown, how long the sync in hand may take before it is interrupted (another worker takes it over). */
  readonly drainTimeout: Duration.Input
}

export const defaultStoreSyncWorkerOptions: StoreSyncWorkerOptions = {
  concurrency: 1,
  pollInterval: Duration.seconds(2),
  scheduleInterval: Duration.seconds(30),
  maxErrorBackoff: Duration.minutes(1),
  drainTimeout: Duration.seconds(10)
}

const Count = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))

const duration = (name: string, fallback: Duration.Input) =>
  Config.schema(PositiveDuration, name).pipe(Config.withDefault(Duration.fromInputUnsafe(fallback)))

/**
 * From the environment: STORE_SYNC_CONCURRENCY (sync loops per process, default 1, 0 = none),
 * STORE_SYNC_POLL_INTERVAL (default "2 seconds"), SCHEDULE_INTERVAL (default "30 seconds": a slot
 * is queued at most this late), STORE_SYNC_DRAIN_TIMEOUT (default "10 seconds").
 */
export const storeSyncWorkerConfig: Config.Config<StoreSyncWorkerOptions> = Config.all({
  concurrency: Config.schema(Count, "STORE_SYNC_CONCURRENCY").pipe(
    Config.withDefault(defaultStoreSyncWorkerOptions.concurrency)
  ),
  pollInterval: duration("STORE_SYNC_POLL_INTERVAL", defaultStoreSyncWorkerOptions.pollInterval),
  scheduleInterval: duration("SCHEDULE_INTERVAL", defaultStoreSyncWorkerOptions.scheduleInterval),
  maxErrorBackoff: Config.succeed(defaultStoreSyncWorkerOptions.maxErrorBackoff),
  drainTimeout: duration("STORE_SYNC_DRAIN_TIMEOUT", defaultStoreSyncWorkerOptions.drainTimeout)
})

type Round = "synced" | "idle" | "failed"

/**
 * One loop: every `scheduleInterval` it queues the schedule slots that have come, and every round it
 * does the next sync due (asked for or scheduled), then the next, until none is left.
 */
const syncLoop = (options: StoreSyncWorkerOptions, owner: string, stopping: Deferred.Deferred<void>) =>
  Effect.gen(function* () {
    const jobs = yield* StoreSyncJobs
    const schedules = yield* SyncSchedules
    const scheduleEvery = Duration.toMillis(Duration.fromInputUnsafe(options.scheduleInterval))
    let lastScheduled = Number.NEGATIVE_INFINITY
    const round: Effect.Effect<Round> = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      if (now - lastScheduled >= scheduleEvery) {
        const queued = yield* schedules.queueDue()
        lastScheduled = now
        if (queued.length > 0)
          yield* Effect.logInfo("scheduled store syncs queued").pipe(Effect.annotateLogs({ queued: queued.length }))
      }
      const done = yield* jobs.executeNext(owner)
      if (Option.isNone(done)) return "idle" as const
      const job = done.value
      yield* Effect.logInfo("store sync ended").pipe(
        Effect.annotateLogs({
          store_sync: job.id,
          workspace: job.workspaceId,
          trigger: job.trigger,
          status: job.status,
          ...(job.error === null ? {} : { error: job.error }),
          ...(job.runId === null ? {} : { run: job.runId })
        })
      )
      return "synced" as const
    }).pipe(
      Effect.catchCause((cause) =>
        Cause.hasInterruptsOnly(cause)
          ? Effect.interrupt
          : Effect.as(Effect.logError("store sync round failed", cause), "failed" as const)
      )
    )
    let failures = 0
    while (!(yield* Deferred.isDone(stopping))) {
      const result = yield* round
      failures = result === "failed" ? failures + 1 : 0
      if (result === "idle") yield* pauseUnlessStopping(stopping, options.pollInterval)
      if (result === "failed") {
        yield* pauseUnlessStopping(stopping, failureBackoff(options.pollInterval, failures, options.maxErrorBackoff))
      }
    }
  })

/**
 * The store sync worker (docs/runs.md, "Scheduled runs"): `concurrency` loops on fibers of the
 * layer's scope. Every process running Jobs.layer runs it; the slots are queued once across them all
 * (one sync per workspace and slot, in the database) and each sync is done by one of them (a claim
 * under a lease; a sync whose worker died is taken over when its lease runs out).
 */
export const layerWith = (options: StoreSyncWorkerOptions): Layer.Layer<never, never, StoreSyncJobs | SyncSchedules> =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      if (options.concurrency === 0) return
      yield* forkLoops(
        {
          job: "store-sync",
          concurrency: options.concurrency,
          drainTimeout: options.drainTimeout,
          cutShort: "the sync in hand is taken over by a worker once its lease runs out"
        },
        (owner, stopping) => Effect.annotateLogs(syncLoop(options, owner, stopping), { job: "store-sync" })
      )
      yield* Effect.logInfo("store-sync worker started").pipe(
        Effect.annotateLogs({
          job: "store-sync",
          concurrency: options.concurrency,
          schedule_interval: Duration.format(Duration.fromInputUnsafe(options.scheduleInterval))
        })
      )
    })
  )

/** The store sync worker configured by `storeSyncWorkerConfig`. */
export const layer = Layer.unwrap(Effect.map(storeSyncWorkerConfig, layerWith))
