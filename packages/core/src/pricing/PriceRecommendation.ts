import { Schema } from "effect"
import { CurrencyCode } from "../kernel/Money.ts"
import { ElasticitySource } from "./Elasticity.ts"

/**
 * Why a price is recommended. One code per recommendation; the first that applies wins:
 * - `floor_exceeds_step`: the floor (min margin or min_price / MAP) is further away than max_change_pct;
 *   the floor wins and the move is larger than the step.
 * - `ceiling_exceeds_step`: the same for max_price: the ceiling wins and the move is larger than the step.
 * - `step_limited`: the price the rules call for is further than max_change_pct; this recommendation moves
 *   by the step and later runs continue.
 * - `below_floor`: the price is below the floor and the recommendation restores it (within the step).
 * - `above_ceiling`: the price is above max_price and the recommendation brings it down (within the step).
 * - `above_competitor_limit`: the price is more than max_premium_over_competitor above the competitor's price
 *   and the recommendation brings it down (within the step).
 * - `below_profit_optimum`: (objective `profit`) the profit-maximising price is higher; the price goes up.
 * - `above_profit_optimum`: (objective `profit`) the profit-maximising price is lower; the price comes down.
 * - `below_target_margin`: the margin is below the policy's target; the price goes up toward the target price
 *   (under `profit`: demand looks inelastic or is unknown, and the price only ever goes up toward the target).
 * - `above_target_margin`: (objective `target_margin`) the margin is above the target; the price comes down
 *   toward the target price.
 * The first five (and `floor_exceeds_step` / `ceiling_exceeds_step` when the price breaks the limit) are
 * guardrail restorations: recommended whatever their expected profit change.
 */
export const RuleCode = Schema.Literals([
  "floor_exceeds_step",
  "ceiling_exceeds_step",
  "step_limited",
  "below_floor",
  "above_ceiling",
  "above_competitor_limit",
  "below_profit_optimum",
  "above_profit_optimum",
  "below_target_margin",
  "above_target_margin"
])
export type RuleCode = typeof RuleCode.Type

const Margin = Schema.NullOr(Schema.Finite)

/** A price the engine recommends for one item, with its reason and expected effect. Prices are minor units. */
export const PriceRecommendation = Schema.Struct({
  currentPrice: Schema.Int,
  recommendedPrice: Schema.Int,
  currency: CurrencyCode,
  /** (price - cost) / price; null without a cost. */
  currentMargin: Margin,
  projectedMargin: Margin,
  rule: RuleCode,
  /** One human sentence: why, from what to what, and the expected impact. */
  explanation: Schema.String,
  elasticity: Schema.Finite,
  /** The 90 % interval of the elasticity, [more negative end, less negative end]. */
  elasticityInterval: Schema.Tuple([Schema.Finite, Schema.Finite]),
  elasticitySource: ElasticitySource,
  elasticitySampleSize: Schema.Int,
  /** Expected change of monthly profit in minor units at the point estimate (revenue change without a cost). */
  expectedMonthlyImpact: Schema.Int
})
export type PriceRecommendation = typeof PriceRecommendation.Type
