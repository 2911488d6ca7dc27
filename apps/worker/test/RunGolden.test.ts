import { assert, describe, it } from "@effect/vitest"
import type { CatalogItemInput } from "@margin/core/catalog/CatalogItem"
import type { WorkspaceId } from "@margin/core/kernel/Ids"
import { analyseItem } from "@margin/core/pricing/Pricing"
import { pricingInput, pricingPolicy } from "@margin/core/testing/PricingFixtures"
import {
  checkGoldenRecommendation,
  type GoldenCase,
  goldenCases,
  goldenPolicy
} from "@margin/core/testing/PricingGolden"
import * as RunWorld from "@margin/runtime/testing/RunWorld"
import {
  alertsOf,
  aWorkspace,
  importItems,
  itemsBySku,
  recommendationsOf,
  runToEnd
} from "@margin/runtime/testing/RunWorld"
import { Effect } from "effect"

/**
 * The pricing engine's golden table, end to end: each case becomes a catalog item imported into
 * PostgreSQL (its price history and previous cost built by earlier imports, as a store's history
 * builds them), a worker runs the catalog, and what the run stored must be what the table says.
 * Runs do not know store prices, so the table's `price_drift` alerts are not expected of a run.
 */

const skuOf = (index: number) => `GOLD-${String(index).padStart(2, "0")}`

/** The imports that leave the item as the case describes it: its history first, the case last. */
const importsOf = (c: GoldenCase, index: number): ReadonlyArray<Partial<CatalogItemInput>> => {
  const input = pricingInput(c.item)
  const final = {
    sku: skuOf(index),
    currency: input.currency,
    price: input.price,
    cost: input.cost,
    minPrice: input.minPrice,
    maxPrice: input.maxPrice,
    unitsSold30d: input.unitsSold30d
  }
  // An item's first cost is its snapshot until a run analyses it: the previous cost comes first.
  const firstCost = input.previousCost ?? input.cost
  const history = input.priceHistory.map((point) => ({
    ...final,
    price: point.price,
    unitsSold30d: point.units,
    cost: firstCost
  }))
  const earlier = history.length === 0 && input.previousCost !== null ? [{ ...final, cost: firstCost }] : history
  return [...earlier, final]
}

/** The cases grouped by the policy they are priced under: one workspace each. */
const byPolicy = () => {
  const groups = new Map<string, Array<readonly [GoldenCase, number]>>()
  goldenCases.forEach((c, index) => {
    const key = JSON.stringify(goldenPolicy(c))
    groups.set(key, [...(groups.get(key) ?? []), [c, index] as const])
  })
  return [...groups.values()]
}

const expectedAlerts = (c: GoldenCase) => (c.alerts ?? []).filter((kind) => kind !== "price_drift").toSorted()

const importCases = (workspaceId: WorkspaceId, cases: ReadonlyArray<readonly [GoldenCase, number]>) =>
  Effect.gen(function* () {
    const rounds = cases.map(([c, index]) => importsOf(c, index))
    const depth = Math.max(...rounds.map((imports) => imports.length))
    // Round k imports the k-th state of every item that has one; the last state of each comes last.
    for (let round = 0; round < depth; round++) {
      const batch = rounds.flatMap((imports) => {
        const state = imports[round - (depth - imports.length)]
        return state === undefined ? [] : [state]
      })
      yield* importItems(workspaceId, batch)
    }
  })

describe("runs on PostgreSQL against the golden table", () => {
  it.live(
    "every case, imported and run by a worker, stores the recommendation and the alerts the table expects",
    () =>
      Effect.gen(function* () {
        for (const cases of byPolicy()) {
          const first = cases[0]?.[0]
          const policy = first === undefined ? pricingPolicy() : goldenPolicy(first)
          const workspaceId = yield* aWorkspace(policy)
          yield* importCases(workspaceId, cases)
          const items = yield* itemsBySku(workspaceId)
          const run = yield* runToEnd(workspaceId)
          assert.strictEqual(run.status, "succeeded", run.error ?? "")

          const recommendations = yield* recommendationsOf(workspaceId, run)
          const alerts = yield* alertsOf(workspaceId)
          for (const [c, index] of cases) {
            const item = items.get(skuOf(index))
            if (item === undefined) return assert.fail(`${c.name}: the item was not imported`)
            const stored = recommendations.filter((r) => r.itemId === item.id)
            const kinds = alerts.filter((alert) => alert.itemId === item.id).map((alert) => alert.kind)
            assert.deepStrictEqual(kinds.toSorted(), expectedAlerts(c), `${c.name}: alerts`)
            assert.isTrue(alerts.filter((alert) => alert.itemId === item.id).every((alert) => alert.runId === run.id))
            if (c.price === null) {
              assert.deepStrictEqual(stored, [], `${c.name}: no recommendation`)
              continue
            }
            const [recommendation] = stored
            if (recommendation === undefined || stored.length !== 1) return assert.fail(`${c.name}: one recommendation`)
            assert.strictEqual(recommendation.recommendedPrice, c.price, c.name)
            assert.deepStrictEqual(
              [recommendation.status, recommendation.currentPrice, recommendation.currency],
              ["new", item.price, item.currency]
            )
            checkGoldenRecommendation(c, recommendation)
            // The sentence stored is the engine's for the same item.
            const engine = analyseItem(pricingInput({ ...c.item, storePrice: null }), policy).recommendation
            assert.strictEqual(recommendation.explanation, engine?.explanation, c.name)
          }
          assert.deepStrictEqual(
            [run.itemsTotal, run.itemsAnalysed, run.recommendationsCount, run.alertsCount],
            [
              cases.length,
              cases.length,
              cases.filter(([c]) => c.price !== null).length,
              cases.reduce((sum, [c]) => sum + expectedAlerts(c).length, 0)
            ]
          )
          assert.strictEqual(recommendations.length, run.recommendationsCount)
        }
      }).pipe(Effect.provide(RunWorld.layer)),
    { timeout: 180_000 }
  )
})
