import { assert, describe, it } from "@effect/vitest"
import { Alerts } from "@margin/core/alerts/Alerts"
import { CatalogRepository } from "@margin/core/catalog/CatalogRepository"
import { Recommendations } from "@margin/core/recommendations/Recommendations"
import * as RunWorld from "@margin/runtime/testing/RunWorld"
import {
  alertsOf,
  aWorkspace,
  importItems,
  itemsBySku,
  recommendationsOf,
  runToEnd
} from "@margin/runtime/testing/RunWorld"
import { Effect, Option } from "effect"

/**
 * What one run leaves for the next, on PostgreSQL: superseded recommendations, alerts raised once
 * while they stand, and costs compared with the previous run's snapshot.
 */

const actor = { _tag: "SystemActor", name: "run tests" } as const

/** Twenty items below the target margin (a recommendation each), five sold at a loss, three without a cost. */
const catalog = [
  ...Array.from({ length: 20 }, (_, n) => ({ sku: `LOW-${n}`, price: 1000, cost: 700 })),
  ...Array.from({ length: 5 }, (_, n) => ({ sku: `LOSS-${n}`, price: 1000, cost: 1100 })),
  ...Array.from({ length: 3 }, (_, n) => ({ sku: `NOCOST-${n}`, price: 1000, cost: null }))
]

describe("a run after a run, on PostgreSQL", () => {
  it.live(
    "supersedes the new recommendations of the previous run, keeps decided ones, and raises each standing alert once",
    () =>
      Effect.gen(function* () {
        const workspaceId = yield* aWorkspace()
        yield* importItems(workspaceId, catalog)
        const first = yield* runToEnd(workspaceId)
        const firstRecommendations = yield* recommendationsOf(workspaceId, first)
        assert.strictEqual(firstRecommendations.length, 25)
        const firstAlerts = yield* alertsOf(workspaceId)
        // negative_margin + below_floor for each loss, missing_cost for each item without a cost.
        assert.strictEqual(firstAlerts.length, 5 * 2 + 3)

        // Decisions taken between the runs: one accepted (still open), one dismissed (decided). Nothing either
        // rested on changes, so the second run issues neither again and keeps the accepted one (DecisionMemory).
        const recommendations = yield* Recommendations
        const [accepted, dismissed] = firstRecommendations
        if (accepted === undefined || dismissed === undefined) return assert.fail("two recommendations")
        yield* recommendations.accept(workspaceId, accepted.id, actor)
        yield* recommendations.dismiss(workspaceId, dismissed.id, actor)

        const second = yield* runToEnd(workspaceId)
        assert.deepStrictEqual(
          [second.status, second.recommendationsCount, second.alertsCount],
          ["succeeded", 23, firstAlerts.length],
          "the second run finds the same, but for the two decided on"
        )
        const all = yield* recommendationsOf(workspaceId)
        const byId = new Map(all.map((r) => [r.id, r]))
        const kept = new Map([
          [accepted.id, "pending_approval"],
          [dismissed.id, "dismissed"]
        ])
        for (const earlier of firstRecommendations) {
          const status = byId.get(earlier.id)?.status
          assert.strictEqual(status, kept.get(earlier.id) ?? "superseded", earlier.sku)
        }
        const fresh = all.filter((r) => r.runId === second.id)
        assert.strictEqual(fresh.length, 23)
        assert.isFalse(fresh.some((r) => r.itemId === accepted.itemId || r.itemId === dismissed.itemId))
        assert.isTrue(fresh.every((r) => r.status === "new"))
        // One open recommendation per item at most, whatever happened before.
        const open = all.filter((r) => r.status === "new" || r.status === "pending_approval")
        assert.strictEqual(new Set(open.map((r) => r.itemId)).size, open.length)

        const standing = yield* alertsOf(workspaceId)
        assert.deepStrictEqual(
          standing.map((alert) => alert.id).toSorted(),
          firstAlerts.map((alert) => alert.id).toSorted(),
          "nothing new while the same alerts stand"
        )

        // A resolved alert is raised again by the next run that finds the same.
        const [resolved] = standing
        if (resolved === undefined) return assert.fail("an alert")
        yield* Alerts.use((alerts) => alerts.resolve(workspaceId, resolved.id, actor))
        const third = yield* runToEnd(workspaceId)
        const again = (yield* alertsOf(workspaceId)).filter(
          (alert) => alert.itemId === resolved.itemId && alert.kind === resolved.kind
        )
        assert.strictEqual(again.length, 1)
        assert.notStrictEqual(again[0]?.id, resolved.id)
        assert.strictEqual(again[0]?.runId, third.id)
      }).pipe(Effect.provide(RunWorld.layer)),
    { timeout: 120_000 }
  )

  it.live(
    "raises cost_changed for the costs that moved since the previous run, once, and then compares with the new cost",
    () =>
      Effect.gen(function* () {
        const workspaceId = yield* aWorkspace()
        const items = Array.from({ length: 12 }, (_, n) => ({ sku: `C-${n}`, price: 1000, cost: 650 }))
        yield* importItems(workspaceId, items)
        const first = yield* runToEnd(workspaceId)
        assert.deepStrictEqual([first.recommendationsCount, first.alertsCount], [0, 0])

        // A new cost file: three costs move, one moves and comes back before the next run.
        yield* importItems(workspaceId, [
          { sku: "C-1", price: 1000, cost: 700 },
          { sku: "C-2", price: 1000, cost: 600 },
          { sku: "C-3", price: 1000, cost: 900 },
          { sku: "C-4", price: 1000, cost: 500 }
        ])
        yield* importItems(workspaceId, [{ sku: "C-4", price: 1000, cost: 650 }])
        const second = yield* runToEnd(workspaceId)
        const bySku = yield* itemsBySku(workspaceId)
        const skuOf = new Map<string | null, string>([...bySku.values()].map((item) => [item.id, item.sku]))
        const changed = (yield* alertsOf(workspaceId)).filter((alert) => alert.kind === "cost_changed")
        assert.deepStrictEqual(changed.map((alert) => skuOf.get(alert.itemId)).toSorted(), ["C-1", "C-2", "C-3"])
        assert.isTrue(changed.every((alert) => alert.runId === second.id))
        const message = changed.find((alert) => skuOf.get(alert.itemId) === "C-1")?.message
        assert.strictEqual(message, "Cost changed from 6.50 USD to 7.00 USD (+7.7%) since the previous run.")
        // The snapshot follows the run: the next one compares with the new costs.
        const c1 = bySku.get("C-1")
        if (c1 === undefined) return assert.fail("C-1")
        const snapshot = yield* CatalogRepository.use((catalog) => catalog.get(workspaceId, c1.id))
        assert.strictEqual(Option.getOrNull(snapshot)?.analysedCost, 700)

        for (const alert of changed) yield* Alerts.use((alerts) => alerts.resolve(workspaceId, alert.id, actor))
        const third = yield* runToEnd(workspaceId)
        const after = (yield* alertsOf(workspaceId)).filter((alert) => alert.kind === "cost_changed")
        assert.deepStrictEqual(after, [], "unchanged costs since the second run raise nothing")
        assert.strictEqual(third.status, "succeeded")
      }).pipe(Effect.provide(RunWorld.layer)),
    { timeout: 120_000 }
  )
})
