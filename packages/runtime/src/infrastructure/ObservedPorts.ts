import { runStatuses } from "@margin/core/runs/Run"
import { RunRepository } from "@margin/core/runs/RunRepository"
import { WriteBackOutbox } from "@margin/core/writeback/WriteBackOutbox"
import { ServiceMetrics } from "@margin/edge/telemetry"
import { Effect, Layer, Metric, Option } from "effect"

const terminal = new Set(["succeeded", "failed", "cancelled"])

const countRun = (status: string, by = 1) =>
  Metric.update(Metric.withAttributes(ServiceMetrics.runTransitions, { status }), by)

/**
 * The run repository as it is, counting into the run metrics what passes through it: a run
 * inserted (queued) or transitioned to another status (once per status it enters), and the items analysed
 * (the growth of `itemsAnalysed` between progress reports of the runs this process executes).
 */
export const observedRuns = Layer.effect(
  RunRepository,
  Effect.gen(function* () {
    const runs = yield* RunRepository
    // Items already counted per run this process reports progress for; dropped when the run ends.
    const counted = new Map<string, number>()
    const countItems = (id: string, analysed: number, ended: boolean) => {
      const delta = analysed - (counted.get(id) ?? 0)
      if (ended) counted.delete(id)
      else counted.set(id, Math.max(analysed, counted.get(id) ?? 0))
      return delta > 0 ? Metric.update(ServiceMetrics.runItemsAnalysed, delta) : Effect.void
    }
    return RunRepository.of({
      ...runs,
      insert: (run) => Effect.tap(runs.insert(run), () => countRun(run.status)),
      // claimNext is not counted: claiming leaves the status as it was (queued, or running for a run
      // taken over after its lease), and the start that follows is the transition to `running`.
      recordProgress: (workspaceId, id, progress) =>
        Effect.tap(runs.recordProgress(workspaceId, id, progress), () =>
          counted.has(id) || progress.itemsAnalysed > 0 ? countItems(id, progress.itemsAnalysed, false) : Effect.void
        ),
      update: (workspaceId, id, decide) =>
        Effect.tap(runs.update(workspaceId, id, decide), (outcome) => {
          if (Option.isNone(outcome) || outcome.value._tag !== "Transitioned") return Effect.void
          const { before, after } = outcome.value
          if (before.status === after.status) return Effect.void
          const ended = terminal.has(after.status)
          return Effect.andThen(
            countRun(after.status),
            ended && counted.has(id) ? countItems(id, after.itemsAnalysed, true) : Effect.void
          )
        })
    })
  })
)

const writeBackOutcomes = ["applied", "retry_scheduled", "failed"] as const

const countWriteBack = (outcome: (typeof writeBackOutcomes)[number], by = 1) =>
  Metric.update(Metric.withAttributes(ServiceMetrics.writeBackOutcomes, { outcome }), by)

/**
 * The write-back outbox as it is, counting delivery attempts (rows claimed), outcomes, and the
 * attempts a row took to settle (known for the rows this process claimed).
 */
export const observedOutbox = Layer.effect(
  WriteBackOutbox,
  Effect.gen(function* () {
    const outbox = yield* WriteBackOutbox
    // Attempts of the rows this process holds a claim on; dropped when the row settles or is rescheduled.
    const attempts = new Map<string, number>()
    const claimed = (rows: ReadonlyArray<{ readonly id: string; readonly attempts: number }>) => {
      for (const row of rows) attempts.set(row.id, row.attempts)
      return rows.length > 0 ? Metric.update(ServiceMetrics.writeBackAttempts, rows.length) : Effect.void
    }
    const settled = (id: string, outcome: "applied" | "failed") => {
      const taken = attempts.get(id)
      attempts.delete(id)
      return Effect.andThen(
        countWriteBack(outcome),
        taken === undefined
          ? Effect.void
          : Metric.update(Metric.withAttributes(ServiceMetrics.writeBackAttemptsToSettle, { outcome }), taken)
      )
    }
    return WriteBackOutbox.of({
      ...outbox,
      claimDue: (owner, now, leaseUntil, limit) => Effect.tap(outbox.claimDue(owner, now, leaseUntil, limit), claimed),
      claim: (id, owner, now, leaseUntil) =>
        Effect.tap(outbox.claim(id, owner, now, leaseUntil), (row) => claimed(Option.toArray(row))),
      markApplied: (id, owner, now) =>
        Effect.tap(outbox.markApplied(id, owner, now), (done) => (done ? settled(id, "applied") : Effect.void)),
      markFailed: (id, owner, error, now) =>
        Effect.tap(outbox.markFailed(id, owner, error, now), (done) => (done ? settled(id, "failed") : Effect.void)),
      scheduleRetry: (id, owner, nextAttemptAt, error) =>
        Effect.tap(outbox.scheduleRetry(id, owner, nextAttemptAt, error), (done) => {
          attempts.delete(id)
          return done ? countWriteBack("retry_scheduled") : Effect.void
        })
    })
  })
)

/**
 * Every run status, write-back outcome and the item and attempt counters at zero from the start, so
 * that a scrape shows each series before its first event (and `increase()` sees that event).
 */
const countedFromZero = Effect.all(
  [
    ...runStatuses.map((status) => countRun(status, 0)),
    ...writeBackOutcomes.map((outcome) => countWriteBack(outcome, 0)),
    Metric.update(ServiceMetrics.runItemsAnalysed, 0),
    Metric.update(ServiceMetrics.writeBackAttempts, 0)
  ],
  { discard: true }
)

/** Both observed ports over the ones below them: `Layer.provideMerge(observedPorts, adapters)` style. */
export const layer = Layer.mergeAll(observedRuns, observedOutbox, Layer.effectDiscard(countedFromZero))
