import { Context, Effect, Layer, Option } from "effect"
import type { CatalogItem } from "../catalog/CatalogItem.ts"
import { CatalogRepository } from "../catalog/CatalogRepository.ts"
import type { RepositoryError, ResourceNotFound } from "../kernel/Errors.ts"
import type { RecommendationId, WorkspaceId } from "../kernel/Ids.ts"
import { priceLimits } from "../pricing/PriceLimits.ts"
import { type ProfitCurve, profitCurve } from "../pricing/ProfitCurve.ts"
import type { Recommendation } from "./Recommendation.ts"
import { policyLimitsOf } from "./RecommendationBasis.ts"
import { type RecommendationDetail, Recommendations } from "./Recommendations.ts"

/** A recommendation as a person reviews it: its detail, its item as it stands, and the profit curve. */
export interface RecommendationReview {
  readonly detail: RecommendationDetail
  /** None when the item has left the catalog since. */
  readonly item: CatalogItem | null
  /** Null when there is nothing honest to draw (no cost, no sales, or the item gone): the page says why. */
  readonly curve: ProfitCurve | null
}

/**
 * The curve of the recommendation's own estimate around the price it saw, with the floor and ceiling
 * its run applied: the cost and competitor price of its basis (else the item's), the run's policy
 * key, the item's min and max price, and the units the item sells now.
 */
export const curveOf = (recommendation: Recommendation, item: CatalogItem): ProfitCurve | null => {
  const basis = recommendation.basis
  const cost = basis?.cost ?? item.cost
  const competitor = basis === null ? item.competitorPrice : basis.competitorPrice
  const policy = basis === null ? null : policyLimitsOf(basis.policy)
  const limits =
    policy === null
      ? null
      : priceLimits(
          recommendation.currentPrice,
          cost,
          item.minPrice,
          item.maxPrice,
          policy.minMargin,
          policy.maxChangePct,
          competitor,
          policy.maxPremiumOverCompetitor
        )
  return profitCurve({
    currentPrice: recommendation.currentPrice,
    recommendedPrice: recommendation.recommendedPrice,
    cost,
    unitsAtCurrent: item.unitsSold30d,
    elasticity: recommendation.elasticity,
    interval: recommendation.elasticityInterval,
    floor: limits === null || limits.floor <= 0 ? null : limits.floor,
    ceiling: limits === null ? item.maxPrice : limits.ceiling
  })
}

export class RecommendationReviews extends Context.Service<
  RecommendationReviews,
  {
    readonly get: (
      workspaceId: WorkspaceId,
      id: RecommendationId
    ) => Effect.Effect<RecommendationReview, ResourceNotFound | RepositoryError>
  }
>()("margin/core/RecommendationReviews") {
  static readonly layer = Layer.effect(
    RecommendationReviews,
    Effect.gen(function* () {
      const recommendations = yield* Recommendations
      const catalog = yield* CatalogRepository
      return RecommendationReviews.of({
        get: Effect.fn("RecommendationReviews.get")(function* (workspaceId, id) {
          const detail = yield* recommendations.getDetail(workspaceId, id)
          const item = Option.getOrNull(yield* catalog.get(workspaceId, detail.recommendation.itemId))
          return { detail, item, curve: item === null ? null : curveOf(detail.recommendation, item) }
        })
      })
    })
  )
}
