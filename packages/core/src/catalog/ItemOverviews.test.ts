import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as AlertMachine from "../alerts/AlertMachine.ts"
import { AlertRepository } from "../alerts/AlertRepository.ts"
import { CatalogItemId, RecommendationId, RunId } from "../kernel/Ids.ts"
import { RecommendationRepository } from "../recommendations/RecommendationRepository.ts"
import { aRecommendation } from "../testing/Fixtures.ts"
import { seedItem, seedRecommendation, seedWorkspace, useCases, wsA, wsB } from "../testing/UseCases.ts"
import { ItemOverviews, itemOverviewListLimit } from "./ItemOverviews.ts"

const services = ItemOverviews.layer.pipe(Layer.provideMerge(useCases))
const negativeMargin = { kind: "negative_margin", severity: "critical", message: "below cost" } as const

describe("ItemOverviews", () => {
  it.effect("an item with its own recommendations and alerts only", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "pro")
      const mug = yield* seedItem(wsA, { sku: "MUG", price: 1000, cost: 600 })
      const cup = yield* seedItem(wsA, { sku: "CUP", price: 500, cost: 300 })
      const onMug = yield* seedRecommendation(mug, 900)
      yield* seedRecommendation(cup, 450)
      const alert = AlertMachine.raise("alt_mug", { workspaceId: wsA, runId: null, itemId: mug.id }, negativeMargin, 0)
      const other = AlertMachine.raise("alt_cup", { workspaceId: wsA, runId: null, itemId: cup.id }, negativeMargin, 0)
      yield* AlertRepository.use((alerts) => alerts.raiseMany([alert, other]))
      const overview = yield* ItemOverviews.use((items) => items.get(wsA, mug.id))
      assert.strictEqual(overview.item.sku, "MUG")
      assert.deepStrictEqual(
        overview.recommendations.map((r) => r.id),
        [onMug.id]
      )
      assert.deepStrictEqual(
        overview.alerts.map((a) => a.id),
        [alert.id]
      )
      assert.deepStrictEqual([overview.moreRecommendations, overview.moreAlerts], [false, false])
    }).pipe(Effect.provide(services))
  )

  it.effect("lists the newest twenty and says there are more", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "pro")
      const mug = yield* seedItem(wsA, { sku: "MUG", price: 1000, cost: 600 })
      // One run per recommendation: a run leaves one per item.
      const many = Array.from({ length: itemOverviewListLimit + 1 }, (_, n) =>
        aRecommendation({
          id: RecommendationId.make(`rec_mug_${n}`),
          workspaceId: wsA,
          runId: RunId.make(`run_${n}`),
          itemId: mug.id,
          sku: mug.sku,
          createdAt: n
        })
      )
      yield* RecommendationRepository.use((repository) => repository.insertMany(many))
      const overview = yield* ItemOverviews.use((items) => items.get(wsA, mug.id))
      assert.strictEqual(overview.recommendations.length, itemOverviewListLimit)
      assert.isTrue(overview.moreRecommendations)
    }).pipe(Effect.provide(services))
  )

  it.effect("an unknown item, or another workspace's, is not found", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "pro")
      yield* seedWorkspace(wsB, "pro")
      const mug = yield* seedItem(wsA, { sku: "MUG", price: 1000, cost: 600 })
      const items = yield* ItemOverviews
      const failures = [
        yield* Effect.flip(items.get(wsB, mug.id)),
        yield* Effect.flip(items.get(wsA, CatalogItemId.make("itm_nope")))
      ]
      assert.deepStrictEqual(
        failures.map((failure) => failure._tag),
        ["ResourceNotFound", "ResourceNotFound"]
      )
    }).pipe(Effect.provide(services))
  )
})
