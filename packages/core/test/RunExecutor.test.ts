import { assert, describe, it } from "@effect/vitest"
import { Effect, HashMap, Option } from "effect"
import { TestClock } from "effect/testing"
import { Alerts } from "../src/AlertsService.ts"
import { RunId } from "../src/Ids.ts"
import { MemoryDatabase } from "../src/memory/MemoryDatabase.ts"
import { analyseCatalog } from "../src/Pricing.ts"
import { defaultPricingPolicy } from "../src/PricingPolicy.ts"
import { CatalogRepository } from "../src/ports/CatalogRepository.ts"
import { RunRepository } from "../src/ports/RunRepository.ts"
import { Recommendations } from "../src/RecommendationsService.ts"
import type { Run } from "../src/Run.ts"
import { pricingInput, RunExecutor } from "../src/RunExecutor.ts"
import { Runs } from "../src/RunsService.ts"
import { aRun } from "../testing/Fixtures.ts"
import {
  auditOf,
  connectStore,
  seedItem,
  seedWorkspace,
  sessionActor,
  systemActor,
  tokenActor,
  useCases,
  wsA,
  wsB
} from "../testing/UseCases.ts"

const page = { limit: 200, cursor: null }

/**
 * Four items, two chunks of two: A below the target margin, B sold at a loss, C without a cost,
 * D on target but with a cost that changed since the last run.
 */
const setup = Effect.gen(function* () {
  yield* seedWorkspace(wsA, "max")
  yield* connectStore(wsA)
  yield* TestClock.setTime(1_000_000)
  return {
    a: yield* seedItem(wsA, { sku: "A", price: 1000, cost: 700, tags: ["summer"] }),
    b: yield* seedItem(wsA, { sku: "B", price: 1000, cost: 1100 }),
    c: yield* seedItem(wsA, { sku: "C", price: 1000, cost: null, tags: ["summer"] }),
    d: yield* seedItem(wsA, { sku: "D", price: 2000, cost: 1300, analysedCost: 1200 })
  }
})

const trigger = (tags: ReadonlyArray<string> = []) =>
  Runs.use((runs) => runs.trigger(wsA, tags, "schedule", systemActor))

const recommendationsOf = (run: Run) =>
  Recommendations.use((service) => service.list(wsA, { status: null, runId: run.id }, page))

const openAlerts = Alerts.use((alerts) => alerts.list(wsA, { status: "open", kind: null, itemId: null }, page))

describe("RunExecutor", () => {
  it.effect("a run analyses every item in chunks and stores recommendations, alerts and the cost snapshot", () =>
    Effect.gen(function* () {
      const { a, b, c, d } = yield* setup
      const executor = yield* RunExecutor
      const run = yield* trigger()
      yield* TestClock.adjust(5_000)
      const done = yield* executor.execute(run)
      const expected = analyseCatalog([a, b, c, d].map(pricingInput), defaultPricingPolicy)
      assert.deepStrictEqual(
        [done.status, done.itemsTotal, done.itemsAnalysed, done.recommendationsCount, done.alertsCount, done.error],
        ["succeeded", 4, 4, expected.recommendations, expected.alerts, null]
      )
      assert.deepStrictEqual([done.startedAt, done.finishedAt], [1_005_000, 1_005_000])
      const recommendations = (yield* recommendationsOf(run)).items
      assert.deepStrictEqual(recommendations.map((r) => [r.sku, r.status]).sort(), [
        ["A", "new"],
        ["B", "new"]
      ])
      const forA = recommendations.find((r) => r.itemId === a.id)
      assert.deepStrictEqual(
        [forA?.rule, forA?.currentPrice, forA?.recommendedPrice],
        ["below_target_margin", 1000, 1099]
      )
      const alerts = (yield* openAlerts).items
      assert.deepStrictEqual(
        alerts.map((alert) => `${alert.itemId === null ? "-" : alert.itemId}:${alert.kind}`).sort(),
        [`${b.id}:below_floor`, `${b.id}:negative_margin`, `${c.id}:missing_cost`, `${d.id}:cost_changed`]
      )
      assert.isTrue(alerts.every((alert) => alert.runId === run.id))
      const snapshot = yield* CatalogRepository.use((catalog) => catalog.get(wsA, d.id))
      assert.strictEqual(Option.getOrNull(snapshot)?.analysedCost, 1300)
      assert.deepStrictEqual(
        (yield* auditOf(wsA)).map((event) => [event.action, event.afterStatus]),
        [
          ["run.trigger", "queued"],
          ["run.start", "running"],
          ["run.succeed", "succeeded"]
        ]
      )
    }).pipe(Effect.provide(useCases))
  )

  it.effect("a run over tags analyses only the items carrying them", () =>
    Effect.gen(function* () {
      yield* setup
      const done = yield* (yield* RunExecutor).execute(yield* trigger(["summer"]))
      assert.deepStrictEqual([done.itemsTotal, done.itemsAnalysed], [2, 2])
      assert.deepStrictEqual(
        (yield* recommendationsOf(done)).items.map((r) => r.sku),
        ["A"]
      )
    }).pipe(Effect.provide(useCases))
  )

  it.effect("a newer run supersedes the open recommendations of the items it recommends for, not decided ones", () =>
    Effect.gen(function* () {
      const { a, b } = yield* setup
      const executor = yield* RunExecutor
      const recommendations = yield* Recommendations
      const first = yield* executor.execute(yield* trigger())
      const firstRecs = (yield* recommendationsOf(first)).items
      const forA = firstRecs.find((r) => r.itemId === a.id)
      const forB = firstRecs.find((r) => r.itemId === b.id)
      if (forA === undefined || forB === undefined) return assert.fail("the first run recommends for A and B")
      yield* recommendations.accept(wsA, forA.id, tokenActor)
      yield* recommendations.accept(wsA, forB.id, tokenActor)
      yield* recommendations.approve(wsA, forB.id, sessionActor, "approver")
      const alertsBefore = (yield* openAlerts).items.length
      yield* TestClock.adjust(60_000)
      const second = yield* executor.execute(yield* trigger())
      assert.strictEqual(second.status, "succeeded")
      assert.deepStrictEqual(
        [(yield* recommendations.get(wsA, forA.id)).status, (yield* recommendations.get(wsA, forB.id)).status],
        ["superseded", "approved"]
      )
      assert.deepStrictEqual((yield* recommendationsOf(second)).items.map((r) => [r.sku, r.status]).sort(), [
        ["A", "new"],
        ["B", "new"]
      ])
      // The same findings while the first alerts stand: nothing new is raised.
      assert.strictEqual((yield* openAlerts).items.length, alertsBefore)
    }).pipe(Effect.provide(useCases))
  )

  it.effect("executing a run again after a crash writes nothing twice", () =>
    Effect.gen(function* () {
      yield* setup
      const executor = yield* RunExecutor
      const done = yield* executor.execute(yield* trigger())
      const recsBefore = (yield* recommendationsOf(done)).items
      const alertsBefore = (yield* openAlerts).items
      // The worker died after the last chunk, before it could record success.
      const db = yield* MemoryDatabase
      yield* db.update((tables) => ({
        ...tables,
        runs: HashMap.modify(tables.runs, done.id, (row) => ({
          ...row,
          run: { ...row.run, status: "running", finishedAt: null }
        }))
      }))
      const again = yield* executor.execute(done)
      // The crashed execution already moved D's cost snapshot (atomically with D's cost_changed alert),
      // so the second one no longer counts that finding; the alert itself is stored once.
      assert.deepStrictEqual(
        [again.status, again.itemsAnalysed, again.recommendationsCount, again.alertsCount],
        ["succeeded", done.itemsAnalysed, done.recommendationsCount, done.alertsCount - 1]
      )
      assert.deepStrictEqual((yield* recommendationsOf(done)).items, recsBefore)
      assert.strictEqual((yield* openAlerts).items.length, alertsBefore.length)
    }).pipe(Effect.provide(useCases))
  )

  it.effect("a cancelled run is not executed", () =>
    Effect.gen(function* () {
      yield* setup
      const run = yield* trigger()
      yield* (yield* Runs).cancel(wsA, run.id, tokenActor)
      const answered = yield* (yield* RunExecutor).execute(run)
      assert.strictEqual(answered.status, "cancelled")
      assert.strictEqual((yield* recommendationsOf(run)).items.length, 0)
    }).pipe(Effect.provide(useCases))
  )

  it.effect("a run that cannot complete is failed with the reason", () =>
    Effect.gen(function* () {
      const orphan = aRun({ id: RunId.make("run_orphan"), workspaceId: wsB, status: "queued" })
      yield* RunRepository.use((runs) => runs.insert(orphan))
      const failed = yield* (yield* RunExecutor).execute(orphan)
      assert.deepStrictEqual([failed.status, failed.error], ["failed", "the workspace ws_b was not found"])
    }).pipe(Effect.provide(useCases))
  )
})
