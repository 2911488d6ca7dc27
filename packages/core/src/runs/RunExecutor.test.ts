import { assert, describe, it } from "@effect/vitest"
import { Effect, HashMap, Option } from "effect"
import { TestClock } from "effect/testing"
import { Alerts } from "../alerts/Alerts.ts"
import { CatalogRepository } from "../catalog/CatalogRepository.ts"
import { type RecommendationId, RunId } from "../kernel/Ids.ts"
import { MemoryDatabase } from "../memory/MemoryDatabase.ts"
import { analyseCatalog } from "../pricing/Pricing.ts"
import { defaultPricingPolicy } from "../pricing/PricingPolicy.ts"
import { Recommendations } from "../recommendations/Recommendations.ts"
import { aRun } from "../testing/Fixtures.ts"
import {
  auditOf,
  connectStore,
  seedItem,
  seedWorkspace,
  systemActor,
  tokenActor,
  useCases,
  wsA,
  wsB
} from "../testing/UseCases.ts"
import type { Run } from "./Run.ts"
import { pricingInput, RunExecutor } from "./RunExecutor.ts"
import { RunRepository } from "./RunRepository.ts"
import { Runs } from "./Runs.ts"

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

  it.effect(
    "a newer run supersedes the new recommendations it replaces; an accepted one stays until what it rested on changes",
    () =>
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
        const alertsBefore = (yield* openAlerts).items.length
        yield* TestClock.adjust(60_000)
        const second = yield* executor.execute(yield* trigger())
        assert.strictEqual(second.status, "succeeded")
        const statusOf = (id: RecommendationId) => recommendations.get(wsA, id).pipe(Effect.map((r) => r.status))
        assert.deepStrictEqual([yield* statusOf(forA.id), yield* statusOf(forB.id)], ["pending_approval", "superseded"])
        const secondRecs = (yield* recommendationsOf(second)).items
        assert.deepStrictEqual(
          secondRecs.map((r) => [r.sku, r.status]),
          [["B", "new"]]
        )
        // The same findings while the first alerts stand: nothing new is raised.
        assert.strictEqual((yield* openAlerts).items.length, alertsBefore)

        // A's cost moves: the third run replaces the accepted recommendation and says so on both.
        yield* MemoryDatabase.use((db) =>
          db.update((tables) => ({
            ...tables,
            catalogItems: HashMap.modify(tables.catalogItems, a.id, (item) => ({ ...item, cost: 750 }))
          }))
        )
        yield* TestClock.adjust(60_000)
        const third = yield* executor.execute(yield* trigger())
        const thirdRecs = (yield* recommendationsOf(third)).items
        const newA = thirdRecs.find((r) => r.itemId === a.id)
        if (newA === undefined) return assert.fail("the third run recommends for A")
        const what = "the cost went from 7.00 USD to 7.50 USD."
        assert.isTrue(newA.explanation.endsWith(`Supersedes the accepted recommendation of 10.99 USD: ${what}`))
        const oldA = yield* recommendations.get(wsA, forA.id)
        assert.deepStrictEqual(
          [oldA.status, oldA.supersededBy, oldA.supersededReason],
          ["superseded", newA.id, `Superseded by a newer run's recommendation of 10.99 USD: ${what}`]
        )
        assert.deepStrictEqual(
          [newA.basis, thirdRecs.find((r) => r.itemId === b.id)?.status],
          [{ cost: 750, competitorPrice: null, policy: "0.35;0.15;0.1;99;0.01;profit;-1.5;0.1" }, "new"]
        )
      }).pipe(Effect.provide(useCases))
  )

  it.effect("an approved recommendation is not followed by a new one while its write-back is under way", () =>
    Effect.gen(function* () {
      const { a } = yield* setup
      const executor = yield* RunExecutor
      const recommendations = yield* Recommendations
      const first = yield* executor.execute(yield* trigger())
      const forA = (yield* recommendationsOf(first)).items.find((r) => r.itemId === a.id)
      if (forA === undefined) return assert.fail("the first run recommends for A")
      yield* recommendations.accept(wsA, forA.id, tokenActor)
      yield* MemoryDatabase.use((db) =>
        db.update((tables) => ({
          ...tables,
          recommendations: HashMap.modify(tables.recommendations, forA.id, (r) => ({
            ...r,
            status: "approved" as const
          })),
          catalogItems: HashMap.modify(tables.catalogItems, a.id, (item) => ({ ...item, cost: 750 }))
        }))
      )
      const second = yield* executor.execute(yield* trigger())
      assert.isUndefined((yield* recommendationsOf(second)).items.find((r) => r.itemId === a.id))
      assert.strictEqual((yield* recommendations.get(wsA, forA.id)).status, "approved")
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
