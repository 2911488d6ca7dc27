import { type DeliveryOutcome, type DeliveryReport, WriteBackDelivery } from "@margin/core/writeback/WriteBackDelivery"
import { Cause, Config, Deferred, Duration, Effect, Layer, Schema } from "effect"
import { failureBackoff, forkLoops, pauseUnlessStopping } from "./Loops.ts"

export interface OutboxWorkerOptions {
  /** Delivery loops in this process, each claiming with its own owner id; 0 runs none here. */
  readonly concurrency: number
  /** Rows one claim takes; a full batch is followed at once by the next claim. */
  readonly batchSize: number
  /** The pause after a claim that found less than a full batch due. */
  readonly pollInterval: Duration.Input
  /** The longest pause after consecutive failed claims (database unreachable); doubles up to it. */
  readonly maxErrorBackoff: Duration.Input
  /** On shutdown, how long the deliveries in progress may take to finish before they are interrupted. */
  readonly drainTimeout: Duration.Input
}

export const defaultOutboxWorkerOptions: OutboxWorkerOptions = {
  concurrency: 2,
  batchSize: 20,
  pollInterval: Duration.millis(250),
  maxErrorBackoff: Duration.seconds(5),
  drainTimeout: Duration.seconds(10)
}

const PositiveInt = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(1)))
const NonNegativeInt = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))

/**
 * From the environment: OUTBOX_CONCURRENCY (delivery loops per process, default 2; 0 in a REST
 * process leaves every delivery to the workers and the approve requests),
 * OUTBOX_BATCH_SIZE (default 20), OUTBOX_POLL_INTERVAL (default "250 millis"),
 * OUTBOX_DRAIN_TIMEOUT (default "10 seconds").
 */
export const outboxWorkerConfig: Config.Config<OutboxWorkerOptions> = Config.all({
  concurrency: Config.schema(NonNegativeInt, "OUTBOX_CONCURRENCY").pipe(
    Config.withDefault(defaultOutboxWorkerOptions.concurrency)
  ),
  batchSize: Config.schema(PositiveInt, "OUTBOX_BATCH_SIZE").pipe(
    Config.withDefault(defaultOutboxWorkerOptions.batchSize)
  ),
  pollInterval: Config.Duration("OUTBOX_POLL_INTERVAL").pipe(
    Config.withDefault(Duration.fromInputUnsafe(defaultOutboxWorkerOptions.pollInterval))
  ),
  maxErrorBackoff: Config.succeed(defaultOutboxWorkerOptions.maxErrorBackoff),
  drainTimeout: Config.Duration("OUTBOX_DRAIN_TIMEOUT").pipe(
    Config.withDefault(Duration.fromInputUnsafe(defaultOutboxWorkerOptions.drainTimeout))
  )
})

// RunWorker takes its owner ids from here too.
export { ownerId } from "./Loops.ts"

const levelOf = (outcome: DeliveryOutcome) => {
  switch (outcome) {
    case "applied":
    case "already_applied":
      return Effect.logInfo
    case "retry_scheduled":
    case "lease_lost":
    case "not_claimed":
      return Effect.logWarning
    case "price_drift":
    case "rejected":
    case "gave_up":
      return Effect.logError
  }
}

/** One line per delivery: ids, attempt and outcome; never the store's credentials. */
const logReport = (report: DeliveryReport) =>
  levelOf(report.outcome)(`write-back ${report.outcome}`).pipe(
    Effect.annotateLogs({
      writeBack: report.writeBack.id,
      workspace: report.writeBack.workspaceId,
      recommendation: report.writeBack.recommendationId,
      attempt: report.writeBack.attempts,
      outcome: report.outcome
    })
  )

type Round = "full" | "partial" | "failed"

/**
 * One delivery loop: claim up to a batch of due rows for `owner` and deliver them; claim again at
 * once after a full batch, after `pollInterval` otherwise, after a growing pause while claims fail.
 * It ends between rounds once `stopping` is done.
 */
export const deliveryLoop = (owner: string, options: OutboxWorkerOptions, stopping: Deferred.Deferred<void>) =>
  Effect.gen(function* () {
    const delivery = yield* WriteBackDelivery
    const round: Effect.Effect<Round> = delivery.deliverDue(owner, options.batchSize).pipe(
      Effect.tap((reports) => Effect.forEach(reports, logReport, { discard: true })),
      Effect.map((reports): Round => (reports.length >= options.batchSize ? "full" : "partial")),
      // A failed claim or delivery leaves its rows to their lease; the loop itself must live on.
      Effect.catchCause((cause) =>
        Cause.hasInterruptsOnly(cause)
          ? Effect.interrupt
          : Effect.as(Effect.logError("write-back delivery round failed", cause), "failed" as const)
      )
    )
    let failures = 0
    while (!(yield* Deferred.isDone(stopping))) {
      const result = yield* round
      failures = result === "failed" ? failures + 1 : 0
      if (result === "partial") yield* pauseUnlessStopping(stopping, options.pollInterval)
      if (result === "failed") {
        yield* pauseUnlessStopping(stopping, failureBackoff(options.pollInterval, failures, options.maxErrorBackoff))
      }
    }
  }).pipe(Effect.annotateLogs({ job: "outbox", owner }))

/**
 * The outbox worker: `concurrency` delivery loops on fibers of the layer's scope. Closing the scope
 * (SIGTERM, SIGINT) lets each loop finish the batch in hand within `drainTimeout`, then interrupts
 * what is left; an interrupted delivery keeps its row in flight until its lease runs out, and
 * another worker delivers it again (the store adapter makes that repeat harmless).
 */
export const layerWith = (options: OutboxWorkerOptions): Layer.Layer<never, never, WriteBackDelivery> =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      if (options.concurrency === 0) {
        return yield* Effect.logInfo("outbox worker disabled in this process (OUTBOX_CONCURRENCY=0)").pipe(
          Effect.annotateLogs({ job: "outbox" })
        )
      }
      const owners = yield* forkLoops(
        {
          job: "outbox",
          concurrency: options.concurrency,
          drainTimeout: options.drainTimeout,
          cutShort: "its rows are delivered again once their lease runs out"
        },
        (owner, stopping) => deliveryLoop(owner, options, stopping)
      )
      yield* Effect.logInfo("outbox worker started").pipe(
        Effect.annotateLogs({
          job: "outbox",
          owners: owners.join(","),
          batchSize: options.batchSize,
          pollInterval: Duration.format(Duration.fromInputUnsafe(options.pollInterval))
        })
      )
    })
  )

/** The outbox worker configured by `outboxWorkerConfig`. */
export const layer: Layer.Layer<never, Config.ConfigError, WriteBackDelivery> = Layer.unwrap(
  Effect.map(outboxWorkerConfig, layerWith)
)
