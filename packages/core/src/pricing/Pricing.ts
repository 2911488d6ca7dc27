/**
 * What a run computes: for each catalog item, its margin, markup, alerts and (when worth it) a
 * recommended price with its reason. Pure and deterministic; see docs/pricing.md for the semantics.
 *
 * Guardrails, in this order:
 * 1. the goal: under the `profit` objective, where the (pooled) elasticity e is measured and below -1, the
 *    price that maximises the profit at the pessimistic end of the estimate (CautiousGain: cost * e / (1 + e)
 *    at the interval's end, with a known curvature), else at most a raise toward the target-margin price;
 *    under `target_margin` the target-margin price cost / (1 - targetMargin); the current price without a cost > 0;
 * 2. clamp the goal to [floor, ceiling] (floor = max(cost / (1 - minMargin), min_price));
 * 3. clamp to the step, ±maxChangePct around the current price;
 * 4. clamp to [floor, ceiling] again: the hard limits win over the step (rule *_exceeds_step);
 * 5. round to the policy's grid, choosing only among prices that keep every limit still met;
 * 6. recommend only when both the needed and the rounded move exceed the threshold, or the price
 *    breaks a hard limit;
 * 7. under `profit`, outside restorations of a hard limit: only when the expected profit change is
 *    positive at the point estimate and not negative at the pessimistic end of the elasticity's interval
 *    and of the curvature (CautiousGain); a goal sized on half that doubt that fails is sized on all of it.
 * This file is the hot loop of a run: plain TypeScript, no Effect, few allocations.
 */
import type { AlertFinding } from "../alerts/AlertFinding.ts"
import { itemAlerts } from "../alerts/ItemAlerts.ts"
import { type CurrencyCode, minorUnitExponent } from "../kernel/Money.ts"
import { cautiousOptimum, cautiousProfitChange, type DemandBelief } from "./CautiousGain.ts"
import { profitChangeAt } from "./DemandCurve.ts"
import { type ElasticityEstimate, estimateElasticity, type PricePoint } from "./Elasticity.ts"
import { type ElasticityPools, elasticityPools, estimateItem, priorPools } from "./ElasticityPools.ts"
import { explainRecommendation, type GoalKind } from "./Explanation.ts"
import { exceeds, type PriceLimits, priceLimits } from "./PriceLimits.ts"
import type { PriceRecommendation, RuleCode } from "./PriceRecommendation.ts"
import type { PricingPolicy } from "./PricingPolicy.ts"
import { roundWithin } from "./Rounding.ts"

export { AlertFinding, AlertKind, AlertSeverity } from "../alerts/AlertFinding.ts"
export { ElasticitySource } from "./Elasticity.ts"
export { type ElasticityPools, elasticityPools, priorPools } from "./ElasticityPools.ts"
export { PriceRecommendation, RuleCode } from "./PriceRecommendation.ts"

/** One catalog item as a run sees it. Amounts are integer minor units of `currency`; null = unknown. */
export interface PricingInput<Id extends string = string> {
  readonly itemId: Id
  readonly sku: string
  readonly currency: CurrencyCode
  readonly price: number
  readonly cost: number | null
  readonly minPrice: number | null
  readonly maxPrice: number | null
  readonly unitsSold30d: number
  /** The cost at the previous run's snapshot; null = no previous snapshot. */
  readonly previousCost: number | null
  /** The price last seen in the connected store; null = unknown. */
  readonly storePrice: number | null
  /** Past prices and the units sold at each (may be empty). */
  readonly priceHistory: ReadonlyArray<PricePoint>
  /** The item's tags: its categories, whose pooled elasticity it borrows from. */
  readonly tags: ReadonlyArray<string>
  /** The lowest current competitor price, same currency; null = unknown. */
  readonly competitorPrice: number | null
}

export interface ItemAnalysis<Id extends string = string> {
  readonly itemId: Id
  readonly sku: string
  /** (price - cost) / price; null without a cost or with a zero price. */
  readonly currentMargin: number | null
  /** (price - cost) / cost; null without a cost or with a zero cost. */
  readonly markup: number | null
  readonly recommendation: PriceRecommendation | null
  readonly alerts: ReadonlyArray<AlertFinding>
}

export interface CatalogAnalysis<Id extends string = string> {
  /** Ordered by sku, then item id. */
  readonly items: ReadonlyArray<ItemAnalysis<Id>>
  readonly itemsAnalysed: number
  readonly recommendations: number
  readonly alerts: number
}

const clamp = (x: number, min: number, max: number): number => Math.min(Math.max(x, min), max)

/** What the goal aims at: the target margin, the profit optimum, or (no cost) only the hard limits. */
type Aim = "target" | "optimum"

/** The first reason that applies, in the order RuleCode documents them. */
const ruleOf = (
  price: number,
  recommended: number,
  goal: number,
  bounded: number,
  limits: PriceLimits,
  aim: Aim
): RuleCode => {
  if (bounded > limits.stepUp) return "floor_exceeds_step"
  if (bounded < limits.stepDown) return "ceiling_exceeds_step"
  if (goal < limits.stepDown || goal > limits.stepUp) return "step_limited"
  if (price < limits.floor) return "below_floor"
  if (price > limits.ceiling) return limits.ceilingIsCompetitor ? "above_competitor_limit" : "above_ceiling"
  if (aim === "optimum") return recommended > price ? "below_profit_optimum" : "above_profit_optimum"
  return recommended > price ? "below_target_margin" : "above_target_margin"
}

/**
 * How much of the interval's (and the curvature's) doubt sizes a move: the goal maximises the profit at half
 * the distance to the pessimistic end, while the trust rule still asks the move to pay at the pessimistic end
 * itself. Sized at the end (1), a wide interval left too small a move to clear the threshold; sized at the
 * point (0), the move overshot and the trust rule refused it (docs/pricing.md, seeds 1-5).
 */
const sizing = 0.5

/**
 * What the decision rule knows of the item's demand (CautiousGain): the estimate's point, its interval and its
 * curvature's sd, these two scaled by `doubt` (1: as estimated).
 */
const beliefOf = (estimate: ElasticityEstimate, doubt = 1): DemandBelief => ({
  elasticity: estimate.elasticity,
  low: estimate.elasticity + (estimate.low - estimate.elasticity) * doubt,
  high: estimate.elasticity + (estimate.high - estimate.elasticity) * doubt,
  curvature: estimate.curvature,
  curvatureSd: estimate.curvatureSd * doubt
})

/**
 * Damping near the optimum: a profit move that reverses the item's last price change (a raise after a cut,
 * or a cut after a raise) goes half the way. Near the optimum the evidence holds only the engine's own small
 * moves, and a full step on an estimate that swung would see-saw around the optimum.
 */
const damped = (price: number, goal: number, history: ReadonlyArray<PricePoint>): number => {
  const last = history.at(-1)
  if (last === undefined || last.price === price) return goal
  const reverses = (goal - price) * (price - last.price) < 0
  return reverses ? price + (goal - price) / 2 : goal
}

/** The estimate an objective works with: pooled with an interval (profit), or the first version's (target margin). */
const estimateFor = (input: PricingInput<string>, policy: PricingPolicy, pools: ElasticityPools): ElasticityEstimate =>
  policy.objective === "profit" ? estimateItem(input, pools) : estimateElasticity(input.priceHistory)

const recommend = (
  input: PricingInput<string>,
  policy: PricingPolicy,
  limits: PriceLimits,
  currentMargin: number | null,
  pools: ElasticityPools,
  doubt = sizing,
  known: ElasticityEstimate | null = null
): PriceRecommendation | null => {
  const { cost, price } = input
  const { ceiling, floor, stepDown, stepUp } = limits
  const profit = policy.objective === "profit"
  const estimate = known ?? (profit ? estimateFor(input, policy, pools) : null)
  // Without a cost there is no target-margin price; only the hard limits can move the price.
  const target = cost !== null && cost > 0 ? cost / (1 - policy.targetMargin) : price
  let aim: Aim = "target"
  let wanted = target
  if (estimate !== null && cost !== null && cost > 0) {
    const e = estimate.elasticity
    // Measured elastic demand has an interior optimum; inelastic or unmeasured demand is never cut, and
    // an item that sold nothing in its window has no profit to read: it is treated as unmeasured.
    if (input.unitsSold30d > 0 && estimate.source !== "prior" && e < -1) {
      aim = "optimum"
      wanted = damped(price, cautiousOptimum(cost, price, beliefOf(estimate, doubt)), input.priceHistory)
    } else wanted = Math.max(target, price)
  }
  const goal = clamp(wanted, floor, ceiling)
  const bounded = clamp(clamp(goal, stepDown, stepUp), floor, ceiling)
  if (bounded === price) return null
  const floorWins = bounded > stepUp
  const ceilingWins = bounded < stepDown
  // The prices rounding may choose from: every limit that can still be met, on the side the price must move.
  let min = floorWins || ceilingWins ? floor : Math.max(floor, stepDown)
  let max = floorWins || ceilingWins ? ceiling : Math.min(ceiling, stepUp)
  if (bounded > price) min = Math.max(min, price + 1)
  else max = Math.min(max, price - 1)
  const exponent = minorUnitExponent(input.currency)
  const recommended = roundWithin(bounded, min, max, policy.rounding, exponent)
  // Noise is not worth a price change; a broken floor or ceiling always is.
  const breaksLimit = price < floor || price > ceiling
  const threshold = policy.threshold * price
  const worthIt = exceeds(Math.abs(bounded - price), threshold) && exceeds(Math.abs(recommended - price), threshold)
  if (!breaksLimit && !worthIt) return null
  const used = estimate ?? estimateFor(input, policy, pools)
  const units = input.unitsSold30d
  const unitCost = cost ?? 0 // unknown cost: the impact is the revenue change
  const c = used.curvature
  const impact = Math.round(profitChangeAt(units, price, recommended, unitCost, used.elasticity, c)) + 0 // + 0 turns -0 into 0
  // The trust rule: a move the engine does not expect to pay, even at the pessimistic end of its elasticity
  // and curvature (CautiousGain), or that gains less than the policy's share of the item's monthly profit,
  // is not advised.
  if (
    profit &&
    !breaksLimit &&
    (impact <= 0 ||
      impact < policy.minExpectedGain * Math.max(0, units * (price - unitCost)) ||
      cautiousProfitChange(units, price, recommended, unitCost, beliefOf(used)) < 0)
  )
    // A move sized on half the doubt that does not pay at the pessimistic end: the move sized on all of it.
    return aim === "optimum" && doubt < 1 ? recommend(input, policy, limits, currentMargin, pools, 1, used) : null
  const rule = ruleOf(price, recommended, goal, bounded, limits, aim)
  const projectedMargin = cost !== null && recommended > 0 ? (recommended - cost) / recommended : null
  const goalKind: GoalKind = wanted < floor ? "floor" : wanted > ceiling ? "ceiling" : aim
  return {
    currentPrice: price,
    recommendedPrice: recommended,
    currency: input.currency,
    currentMargin,
    projectedMargin,
    rule,
    explanation: explainRecommendation({
      rule,
      currency: input.currency,
      price,
      recommended,
      currentMargin,
      projectedMargin,
      targetMargin: policy.targetMargin,
      maxChangePct: policy.maxChangePct,
      floor,
      floorIsMinPrice: limits.floorIsMinPrice,
      minMargin: policy.minMargin,
      ceiling,
      ceilingIsCompetitor: limits.ceilingIsCompetitor,
      competitorPrice: input.competitorPrice,
      maxPremiumOverCompetitor: policy.maxPremiumOverCompetitor,
      objective: policy.objective,
      restoration: breaksLimit,
      goal,
      goalKind,
      estimate: used,
      impact,
      costKnown: cost !== null,
      unitsSold: units
    }),
    elasticity: used.elasticity,
    elasticityInterval: [used.low, used.high],
    elasticitySource: used.source,
    elasticitySampleSize: used.sampleSize,
    expectedMonthlyImpact: impact
  }
}

/**
 * Margin, markup, alerts and the recommended price (if any) of one item under a policy. `pools` are the
 * catalog's pooled elasticities (see elasticityPools); without them, the policy's prior alone.
 */
export const analyseItem = <Id extends string>(
  input: PricingInput<Id>,
  policy: PricingPolicy,
  pools: ElasticityPools = priorPools(policy.defaultElasticity)
): ItemAnalysis<Id> => {
  const { cost, price } = input
  const currentMargin = cost !== null && price > 0 ? (price - cost) / price : null
  const markup = cost !== null && cost > 0 ? (price - cost) / cost : null
  const limits = priceLimits(
    price,
    cost,
    input.minPrice,
    input.maxPrice,
    policy.minMargin,
    policy.maxChangePct,
    input.competitorPrice,
    policy.maxPremiumOverCompetitor
  )
  return {
    itemId: input.itemId,
    sku: input.sku,
    currentMargin,
    markup,
    // A floor above the ceiling leaves no valid price: the item gets an alert, not a price.
    recommendation: limits.floor > limits.ceiling ? null : recommend(input, policy, limits, currentMargin, pools),
    alerts: itemAlerts(input, currentMargin, limits, policy.minMargin)
  }
}

/** Code-unit order, not locale order: the same everywhere, whatever the machine's locale. */
const bySkuThenId = (a: PricingInput<string>, b: PricingInput<string>): number =>
  a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : 0

/**
 * Every item of a catalog, ordered by sku then item id, whatever order the input came in. Under the
 * `profit` objective the elasticities are pooled over these items first (per tag and over all of them).
 */
export const analyseCatalog = <Id extends string>(
  inputs: ReadonlyArray<PricingInput<Id>>,
  policy: PricingPolicy
): CatalogAnalysis<Id> => {
  const sorted = inputs.toSorted(bySkuThenId)
  const pools =
    policy.objective === "profit"
      ? elasticityPools(sorted, policy.defaultElasticity)
      : priorPools(policy.defaultElasticity)
  const items = sorted.map((input) => analyseItem(input, policy, pools))
  let recommendations = 0
  let alerts = 0
  for (const item of items) {
    if (item.recommendation !== null) recommendations++
    alerts += item.alerts.length
  }
  return { items, itemsAnalysed: items.length, recommendations, alerts }
}
