/**
 * A run remembers the merchant's decisions (docs/pricing.md, "Decisions a run remembers"). Per item,
 * the latest recommendation a person decided on, as the run reads it, and what becomes of the run's
 * own recommendation for the item:
 *
 * | latest decision     | nothing it rested on changed      | something changed                                   |
 * | ------------------- | --------------------------------- | --------------------------------------------------- |
 * | rejected, dismissed | not issued again                  | issued; its explanation says what changed            |
 * | pending_approval    | not issued: the accepted one stays | issued; it supersedes the accepted one, and both say why |
 * | approved            | not issued: its price is on its way to the store, whatever changed        |
 * | applied, write_back_failed, none | issued as the engine made it                           |
 *
 * What a recommendation rests on: the item's price, its cost, its competitor price, the policy, and the
 * elasticity estimate, which changes *materially* when the new point estimate lies outside the 90 %
 * interval the earlier recommendation printed. Pure; the run executor reads the decisions and applies this.
 */

import type { RecommendationId } from "../kernel/Ids.ts"
import { type CurrencyCode, formatMoney } from "../kernel/Money.ts"
import { decimals } from "../pricing/Explanation.ts"
import type { PriceRecommendation } from "../pricing/PriceRecommendation.ts"
import type { PricingInput } from "../pricing/Pricing.ts"
import type { Recommendation, RecommendationStatus } from "./Recommendation.ts"
import { policyChanges, type RecommendationBasis } from "./RecommendationBasis.ts"

/** The statuses a person set: accepted and after, rejected, dismissed. A run reads the latest of these per item. */
export const decidedStatuses: ReadonlyArray<RecommendationStatus> = [
  "pending_approval",
  "approved",
  "applied",
  "write_back_failed",
  "rejected",
  "dismissed"
]

/** An item's latest decided recommendation, as much of it as a run compares. */
export interface PriorDecision {
  readonly id: RecommendationId
  readonly itemId: string
  readonly status: RecommendationStatus
  readonly currency: CurrencyCode
  readonly currentPrice: number
  readonly recommendedPrice: number
  readonly elasticity: number
  readonly elasticityInterval: readonly [number, number]
  readonly basis: RecommendationBasis | null
}

export const priorDecisionOf = (recommendation: Recommendation): PriorDecision => ({
  id: recommendation.id,
  itemId: recommendation.itemId,
  status: recommendation.status,
  currency: recommendation.currency,
  currentPrice: recommendation.currentPrice,
  recommendedPrice: recommendation.recommendedPrice,
  elasticity: recommendation.elasticity,
  elasticityInterval: recommendation.elasticityInterval,
  basis: recommendation.basis
})

/** What the run issues for an item, and the accepted recommendation it supersedes with the reason (if any). */
export interface Recalled {
  readonly recommendation: PriceRecommendation | null
  readonly supersedes: { readonly id: RecommendationId; readonly reason: string } | null
}

const amount = (value: number | null, currency: CurrencyCode): string =>
  value === null ? "none" : formatMoney(value, currency)

/**
 * What changed since `decision` among what it rested on, in words, in a fixed order (price, cost,
 * competitor price, policy, estimate). Empty: nothing did. A decision without a basis (stored before
 * bases were recorded) is compared on its price and estimate only.
 */
export const whatChanged = (
  decision: PriorDecision,
  input: Pick<PricingInput, "price" | "cost" | "competitorPrice" | "currency">,
  policy: string,
  elasticity: number
): ReadonlyArray<string> => {
  const changes: Array<string> = []
  const was = (value: number | null) => amount(value, decision.currency)
  const now = (value: number | null) => amount(value, input.currency)
  if (decision.currentPrice !== input.price || decision.currency !== input.currency)
    changes.push(`the price went from ${was(decision.currentPrice)} to ${now(input.price)}`)
  const basis = decision.basis
  if (basis !== null) {
    if (basis.cost !== input.cost) changes.push(`the cost went from ${was(basis.cost)} to ${now(input.cost)}`)
    if (basis.competitorPrice !== input.competitorPrice)
      changes.push(`the competitor's price went from ${was(basis.competitorPrice)} to ${now(input.competitorPrice)}`)
    if (basis.policy !== policy) changes.push(`the policy changed (${policyChanges(basis.policy, policy).join(", ")})`)
  }
  const [low, high] = decision.elasticityInterval
  if (elasticity < low || elasticity > high)
    changes.push(
      `the elasticity estimate moved to ${decimals(elasticity)}, outside the 90% interval ${decimals(low)} to ${decimals(high)} of then`
    )
  return changes
}

/**
 * The run's recommendation for an item, given the item's latest decision: withheld, issued as made, or
 * issued with what changed (and, over an accepted one, superseding it). See the table above.
 */
export const recall = (
  decision: PriorDecision | null,
  input: Pick<PricingInput, "price" | "cost" | "competitorPrice" | "currency">,
  policy: string,
  recommendation: PriceRecommendation | null
): Recalled => {
  if (recommendation === null || decision === null) return { recommendation, supersedes: null }
  switch (decision.status) {
    case "approved":
      return { recommendation: null, supersedes: null }
    case "rejected":
    case "dismissed":
    case "pending_approval": {
      const changes = whatChanged(decision, input, policy, recommendation.elasticity)
      if (changes.length === 0) return { recommendation: null, supersedes: null }
      const what = changes.join("; ")
      const earlier = formatMoney(decision.recommendedPrice, decision.currency)
      if (decision.status !== "pending_approval")
        return {
          recommendation: {
            ...recommendation,
            explanation: `${recommendation.explanation} Issued again after the recommendation of ${earlier} was ${decision.status}: ${what}.`
          },
          supersedes: null
        }
      const next = formatMoney(recommendation.recommendedPrice, recommendation.currency)
      return {
        recommendation: {
          ...recommendation,
          explanation: `${recommendation.explanation} Supersedes the accepted recommendation of ${earlier}: ${what}.`
        },
        supersedes: { id: decision.id, reason: `Superseded by a newer run's recommendation of ${next}: ${what}.` }
      }
    }
    default:
      return { recommendation, supersedes: null }
  }
}
