import { assert, layer } from "@effect/vitest"
import * as Outcome from "@margin/core/kernel/Outcome"
import * as MemoryAdapters from "@margin/core/memory/MemoryAdapters"
import { runStatuses } from "@margin/core/runs/Run"
import { RunRepository } from "@margin/core/runs/RunRepository"
import { fixtureNow, minuteMs } from "@margin/core/testing/Fixtures"
import { drainRuns } from "@margin/core/testing/Leases"
import { newWriteBack, seedItem, seedRecommendation, seedRun, seedWorkspace } from "@margin/core/testing/Seed"
import { WriteBackOutbox } from "@margin/core/writeback/WriteBackOutbox"
import { ServiceMetrics } from "@margin/edge/telemetry"
import { Effect, Layer, Metric, Option } from "effect"
import * as ObservedPorts from "./ObservedPorts.ts"

// Metrics are process-wide: each test measures the growth it causes.
const count = (metric: Metric.Counter<number>, attributes: Metric.Metric.Attributes = {}) =>
  Effect.map(Metric.value(Metric.withAttributes(metric, attributes)), (state) => state.count)

layer(ObservedPorts.layer.pipe(Layer.provideMerge(MemoryAdapters.layer)))("observed ports", (it) => {
  it.effect("runs: counted by the status they enter; items analysed by the growth of their progress", () =>
    Effect.gen(function* () {
      const queued = yield* count(ServiceMetrics.runTransitions, { status: "queued" })
      const succeeded = yield* count(ServiceMetrics.runTransitions, { status: "succeeded" })
      const items = yield* count(ServiceMetrics.runItemsAnalysed)
      const workspace = yield* seedWorkspace()
      const run = yield* seedRun(workspace.id, { status: "queued" })
      const runs = yield* RunRepository
      yield* runs.update(workspace.id, run.id, (current) =>
        Outcome.transitioned(current, { ...current, status: "running" })
      )
      const progress = { itemsTotal: 50, recommendationsCount: 0, alertsCount: 0 }
      yield* runs.recordProgress(workspace.id, run.id, { ...progress, itemsAnalysed: 10 })
      yield* runs.recordProgress(workspace.id, run.id, { ...progress, itemsAnalysed: 25 })
      yield* runs.update(workspace.id, run.id, (current) =>
        Outcome.transitioned(current, { ...current, status: "succeeded", itemsAnalysed: 50 })
      )
      // A repeat of the same status is no transition.
      yield* runs.update(workspace.id, run.id, (current) => Outcome.idempotentRepeat(current))
      assert.strictEqual((yield* count(ServiceMetrics.runTransitions, { status: "queued" })) - queued, 1)
      assert.strictEqual((yield* count(ServiceMetrics.runTransitions, { status: "succeeded" })) - succeeded, 1)
      assert.strictEqual((yield* count(ServiceMetrics.runItemsAnalysed)) - items, 50)
    })
  )

  it.effect("runs: each event of a run's life moves exactly one status series by one (claiming moves none)", () =>
    Effect.gen(function* () {
      const runs = yield* RunRepository
      const snapshot = Effect.forEach(runStatuses, (status) => count(ServiceMetrics.runTransitions, { status }))
      yield* drainRuns
      let last = yield* snapshot
      /** The growth of every status series since the previous call, by status. */
      const growth = Effect.map(snapshot, (now) => {
        const grown = Object.fromEntries(
          runStatuses.map((status, index) => [status, (now[index] ?? 0) - (last[index] ?? 0)])
        )
        last = now
        return grown
      })
      const none = { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 }
      const workspace = yield* seedWorkspace()
      const run = yield* seedRun(workspace.id, { status: "queued", createdAt: fixtureNow })
      assert.deepStrictEqual(yield* growth, { ...none, queued: 1 }, "inserted: queued once")
      const claimed = yield* runs.claimNext("me", fixtureNow + minuteMs, fixtureNow + 2 * minuteMs)
      assert.strictEqual(Option.getOrUndefined(claimed)?.id, run.id)
      assert.deepStrictEqual(yield* growth, none, "claimed: still queued, no transition")
      yield* runs.update(workspace.id, run.id, (current) =>
        Outcome.transitioned(current, { ...current, status: "running" })
      )
      assert.deepStrictEqual(yield* growth, { ...none, running: 1 }, "started")
      yield* runs.update(workspace.id, run.id, (current) =>
        Outcome.transitioned(current, { ...current, status: "succeeded" })
      )
      assert.deepStrictEqual(yield* growth, { ...none, succeeded: 1 }, "succeeded")
    })
  )

  it.effect("write-backs: attempts claimed, outcomes, and attempts to settle", () =>
    Effect.gen(function* () {
      const applied = yield* count(ServiceMetrics.writeBackOutcomes, { outcome: "applied" })
      const retried = yield* count(ServiceMetrics.writeBackOutcomes, { outcome: "retry_scheduled" })
      const attempts = yield* count(ServiceMetrics.writeBackAttempts)
      const settledBefore = yield* Metric.value(
        Metric.withAttributes(ServiceMetrics.writeBackAttemptsToSettle, { outcome: "applied" })
      )
      const workspace = yield* seedWorkspace()
      const run = yield* seedRun(workspace.id)
      const item = yield* seedItem(workspace.id)
      const recommendation = yield* seedRecommendation(run, item)
      const outbox = yield* WriteBackOutbox
      const row = yield* newWriteBack(recommendation)
      yield* outbox.enqueue(row)
      const t = row.nextAttemptAt
      const first = yield* outbox.claimDue("me", t, t + 1_000, 10)
      assert.strictEqual(first.length, 1)
      assert.isTrue(yield* outbox.scheduleRetry(row.id, "me", t + 1_500, "store busy"))
      assert.isTrue(Option.isSome(yield* outbox.claim(row.id, "me", t + 3_000, t + 4_000)))
      assert.isTrue(yield* outbox.markApplied(row.id, "me", t + 3_100))
      assert.strictEqual((yield* count(ServiceMetrics.writeBackAttempts)) - attempts, 2)
      assert.strictEqual((yield* count(ServiceMetrics.writeBackOutcomes, { outcome: "retry_scheduled" })) - retried, 1)
      assert.strictEqual((yield* count(ServiceMetrics.writeBackOutcomes, { outcome: "applied" })) - applied, 1)
      const settled = yield* Metric.value(
        Metric.withAttributes(ServiceMetrics.writeBackAttemptsToSettle, { outcome: "applied" })
      )
      assert.strictEqual(settled.count - settledBefore.count, 1)
      assert.strictEqual(settled.sum - settledBefore.sum, 2, "applied at its second attempt")
    })
  )
})
