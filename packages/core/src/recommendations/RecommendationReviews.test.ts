import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { RecommendationId } from "../kernel/Ids.ts"
import { aRecommendation } from "../testing/Fixtures.ts"
import { pricingPolicy } from "../testing/PricingFixtures.ts"
import { seededRun, seedItem, seedWorkspace, useCases, wsA, wsB } from "../testing/UseCases.ts"
import { policyKey, policyLimitsOf } from "./RecommendationBasis.ts"
import { RecommendationRepository } from "./RecommendationRepository.ts"
import { RecommendationReviews } from "./RecommendationReviews.ts"

const services = RecommendationReviews.layer.pipe(Layer.provideMerge(useCases))

/** Item at 10.00 costing 6.00, 30 units a month; recommended 9.00 at elasticity −2 in [−3, −1]. */
const scene = Effect.gen(function* () {
  yield* seedWorkspace(wsA, "pro")
  const item = yield* seedItem(wsA, { sku: "MUG", price: 1000, cost: 600 })
  const recommendation = aRecommendation({
    id: RecommendationId.make("rec_mug"),
    workspaceId: wsA,
    runId: seededRun,
    itemId: item.id,
    sku: item.sku,
    currentPrice: 1000,
    recommendedPrice: 900,
    elasticity: -2,
    elasticityInterval: [-3, -1],
    basis: {
      cost: 600,
      competitorPrice: null,
      policy: policyKey(pricingPolicy({ minMargin: 0.25, maxChangePct: 0.1 }))
    },
    createdAt: 0,
    updatedAt: 0
  })
  yield* RecommendationRepository.use((repository) => repository.insertMany([recommendation]))
  return recommendation
})

describe("RecommendationReviews", () => {
  it.effect("gives the detail, the item and the curve with the run's floor", () =>
    Effect.gen(function* () {
      const recommendation = yield* scene
      const review = yield* RecommendationReviews.use((reviews) => reviews.get(wsA, recommendation.id))
      assert.strictEqual(review.detail.recommendation.id, recommendation.id)
      assert.strictEqual(review.item?.sku, "MUG")
      const curve = review.curve
      assert.isNotNull(curve)
      if (curve === null) return
      // Floor: 6.00 / (1 − 0.25) = 8.00; no max_price and no competitor: no ceiling drawn.
      assert.deepStrictEqual([curve.floor, curve.ceiling, curve.current, curve.recommended], [800, null, 1000, 900])
      // At today's price: 4.00 × 30 units.
      assert.strictEqual(curve.estimate[curve.prices.indexOf(1000)], 12_000)
    }).pipe(Effect.provide(services))
  )

  it.effect("another workspace's recommendation is not found", () =>
    Effect.gen(function* () {
      const recommendation = yield* scene
      yield* seedWorkspace(wsB, "pro")
      const failure = yield* Effect.flip(RecommendationReviews.use((reviews) => reviews.get(wsB, recommendation.id)))
      assert.strictEqual(failure._tag, "ResourceNotFound")
    }).pipe(Effect.provide(services))
  )

  it("reads the limits of a policy key, and nothing of a key it cannot read", () => {
    assert.deepStrictEqual(policyLimitsOf(policyKey(pricingPolicy({ minMargin: 0.2, maxChangePct: 0.15 }))), {
      minMargin: 0.2,
      maxChangePct: 0.15,
      maxPremiumOverCompetitor: pricingPolicy().maxPremiumOverCompetitor
    })
    assert.isNull(policyLimitsOf("garbage"))
  })
})
