import { type CurrencyCode, formatMoney } from "../kernel/Money.ts"
import type { ElasticityEstimate } from "./Elasticity.ts"
import type { RuleCode } from "./PriceRecommendation.ts"
import type { PricingObjective } from "./PricingPolicy.ts"

/** 0.354 -> "35.4%" (one decimal, half up; integer arithmetic because toFixed is slow in the hot loop). */
export const formatPercent = (ratio: number): string => {
  const tenths = Math.round(ratio * 1000)
  const abs = Math.abs(tenths)
  return `${tenths < 0 ? "-" : ""}${Math.floor(abs / 10)}.${abs % 10}%`
}

/** Where an item's floor comes from, in words: its min_price (MAP) or the policy's minimum margin. */
export const floorReason = (floorIsMinPrice: boolean, minMargin: number): string =>
  floorIsMinPrice ? "the minimum price" : `the ${formatPercent(minMargin)} minimum margin`

/** Which limit or aim shaped the price a recommendation heads for. */
export type GoalKind = "target" | "optimum" | "floor" | "ceiling"

/** Everything a recommendation's sentence mentions. */
export interface PriceDecision {
  readonly rule: RuleCode
  readonly currency: CurrencyCode
  readonly price: number
  readonly recommended: number
  readonly currentMargin: number | null
  readonly projectedMargin: number | null
  readonly targetMargin: number
  readonly maxChangePct: number
  readonly floor: number
  readonly floorIsMinPrice: boolean
  readonly minMargin: number
  readonly ceiling: number
  readonly ceilingIsCompetitor: boolean
  readonly competitorPrice: number | null
  readonly maxPremiumOverCompetitor: number | null
  readonly objective: PricingObjective
  /** The price breaks the floor or the ceiling: the move is made whatever it costs. */
  readonly restoration: boolean
  /** The price the rules call for before the step limit and rounding. */
  readonly goal: number
  readonly goalKind: GoalKind
  readonly estimate: ElasticityEstimate
  readonly impact: number
  readonly costKnown: boolean
  /** units_sold_30d: with none, no change of monthly profit is claimed. */
  readonly unitsSold: number
}

const why = (d: PriceDecision): string => {
  const money = (amount: number) => formatMoney(amount, d.currency)
  const step = formatPercent(d.maxChangePct)
  switch (d.rule) {
    case "floor_exceeds_step":
      return `The floor of ${money(d.floor)} (${floorReason(d.floorIsMinPrice, d.minMargin)}) is more than the ${step} step away and wins over it`
    case "ceiling_exceeds_step":
      return `The ${ceilingText(d)} is more than the ${step} step away and wins over it`
    case "step_limited":
      return `Reaching ${money(Math.round(d.goal))} (${goalName(d)}) takes more than the ${step} step, so this run moves part of the way`
    case "below_floor":
      return `The price is below the floor of ${money(d.floor)} (${floorReason(d.floorIsMinPrice, d.minMargin)})`
    case "above_ceiling":
      return `The price is above the maximum price of ${money(d.ceiling)}`
    case "above_competitor_limit":
      return `The price is above the ${ceilingText(d)}`
    case "below_profit_optimum":
      return "Expected monthly profit is higher at a higher price"
    case "above_profit_optimum":
      return "Expected monthly profit is higher at a lower price"
    case "below_target_margin":
      return `Margin ${margin(d.currentMargin)} is below the ${formatPercent(d.targetMargin)} target`
    case "above_target_margin":
      return `Margin ${margin(d.currentMargin)} is above the ${formatPercent(d.targetMargin)} target`
  }
}

const goalName = (d: PriceDecision): string => {
  switch (d.goalKind) {
    case "target":
      return `the ${formatPercent(d.targetMargin)} target margin`
    case "optimum":
      return "the profit-maximising price"
    case "floor":
      return `the floor, ${floorReason(d.floorIsMinPrice, d.minMargin)}`
    case "ceiling":
      return d.ceilingIsCompetitor ? "the competitor limit" : "the maximum price"
  }
}

/** The ceiling in words: max_price, or the competitor positioning limit when it is lower, with its amount. */
const ceilingText = (d: PriceDecision): string =>
  d.ceilingIsCompetitor && d.competitorPrice !== null && d.maxPremiumOverCompetitor !== null
    ? `competitor limit of ${formatMoney(d.ceiling, d.currency)} (at most ${formatPercent(d.maxPremiumOverCompetitor)} above the competitor's ${formatMoney(d.competitorPrice, d.currency)})`
    : `maximum price of ${formatMoney(d.ceiling, d.currency)}`

const margin = (ratio: number | null): string => (ratio === null ? "unknown" : formatPercent(ratio))

const aimRule = (rule: RuleCode): boolean =>
  rule === "below_target_margin" ||
  rule === "above_target_margin" ||
  rule === "below_profit_optimum" ||
  rule === "above_profit_optimum"

// A target-margin or profit move the limits cut short says which limit it stopped at.
const limitNote = (d: PriceDecision): string => {
  if (!aimRule(d.rule)) return ""
  if (d.goalKind === "floor")
    return `, held at the floor of ${formatMoney(d.floor, d.currency)} set by ${floorReason(d.floorIsMinPrice, d.minMargin)}`
  if (d.goalKind === "ceiling") return `, capped at the ${ceilingText(d)}`
  return ""
}

/** -2.5 -> "-2.50" (two decimals, half away from zero; integer arithmetic, as formatPercent). */
export const decimals = (x: number): string => {
  const hundredths = Math.round(Math.abs(x) * 100)
  const cents = hundredths % 100
  return `${x < 0 && hundredths > 0 ? "-" : ""}${Math.floor(hundredths / 100)}.${cents < 10 ? "0" : ""}${cents}`
}

const sourceText = (estimate: ElasticityEstimate): string => {
  switch (estimate.source) {
    case "item":
      return `from the item's ${estimate.sampleSize} price points`
    case "pooled":
      return estimate.poolTag === null ? "pooled over the workspace" : `pooled over the tag ${estimate.poolTag}`
    case "prior":
      return "the policy's prior, no price history yet"
  }
}

/** The check of the last prediction, when it missed: what sold against the range predicted (PredictionCheck). */
const missText = (estimate: ElasticityEstimate): string => {
  const miss = estimate.predictionMiss
  if (miss === null) return ""
  return `; the ${miss.sold} units sold since the last price change fell outside the ${miss.predictedLow} to ${miss.predictedHigh} predicted, so the interval was widened`
}

const elasticityText = (estimate: ElasticityEstimate): string => {
  if (estimate.method === null)
    return `an elasticity of ${decimals(estimate.elasticity)} (${sourceText(estimate)}; 90% interval ${decimals(estimate.low)} to ${decimals(estimate.high)}${missText(estimate)})`
  const points = `${estimate.sampleSize} price point${estimate.sampleSize === 1 ? "" : "s"}`
  switch (estimate.method) {
    case "arc":
      return `an arc elasticity of ${estimate.elasticity.toFixed(2)} from ${points}`
    case "log_log":
      return `a log-log elasticity of ${estimate.elasticity.toFixed(2)} from ${points}`
    case "assumed_zero":
      return estimate.sampleSize === 0
        ? "an assumed elasticity of 0 (no price history)"
        : `an assumed elasticity of 0 (${points} gave no falling demand curve)`
  }
}

// The second sentence: the objective, and for a restoration that loses money, that the limit comes first.
const objectiveText = (d: PriceDecision): string => {
  if (d.objective === "target_margin") return " Objective: the target margin, not the highest expected profit."
  if (d.unitsSold === 0)
    return ` Objective: the highest expected profit, but without sales there is none to estimate: the price moves only where a limit requires it${d.costKnown ? ", and then toward the target margin" : ""}.`
  if (d.restoration && d.impact < 0)
    return ` Objective: the highest expected profit, but the limit comes first and costs ${formatMoney(-d.impact, d.currency)} a month.`
  if (!d.restoration && d.goalKind === "target" && d.costKnown)
    return ` Objective: the highest expected profit; demand ${d.estimate.source === "prior" ? "is not measured yet" : "looks inelastic"}, so the price only goes up, toward the target margin.`
  return " Objective: the highest expected profit."
}

/** Two sentences: why, from what price to what, the projected margin, the expected monthly impact at which
 * elasticity; then the objective. */
export const explainRecommendation = (d: PriceDecision): string => {
  const projected =
    d.projectedMargin === null
      ? "margin unknown without a cost"
      : `projected margin ${formatPercent(d.projectedMargin)}`
  const verb = d.recommended > d.price ? "raise" : "lower"
  return [
    why(d),
    ": ",
    verb,
    " the price from ",
    formatMoney(d.price, d.currency),
    " to ",
    formatMoney(d.recommended, d.currency),
    limitNote(d),
    " (",
    projected,
    competitorNote(d),
    "); ",
    impactText(d),
    ".",
    objectiveText(d)
  ].join("")
}

/** Where the new price stands against the competitor's, whenever the item has one. */
const competitorNote = (d: PriceDecision): string => {
  const competitor = d.competitorPrice
  if (competitor === null || competitor <= 0 || saysCompetitorLimit(d)) return ""
  const against = formatMoney(competitor, d.currency)
  if (d.recommended === competitor) return `, equal to the competitor's ${against}`
  const gap = d.recommended / competitor - 1
  return `, ${formatPercent(Math.abs(gap))} ${gap > 0 ? "above" : "below"} the competitor's ${against}`
}

/** The sentence already names the competitor's price: the competitor limit bound the move (ceilingText). */
const saysCompetitorLimit = (d: PriceDecision): boolean =>
  d.ceilingIsCompetitor &&
  (d.rule === "above_competitor_limit" ||
    d.rule === "ceiling_exceeds_step" ||
    (d.goalKind === "ceiling" && aimRule(d.rule)))

/** The expected monthly change and the elasticity it rests on; no claim at all for an item that sold nothing. */
const impactText = (d: PriceDecision): string => {
  const measure = d.costKnown ? "profit" : "revenue"
  if (d.unitsSold === 0) return `no units sold in the last 30 days, so no change of monthly ${measure} is expected`
  const sign = d.impact > 0 ? "+" : ""
  return `expected monthly ${measure} change ${sign}${formatMoney(d.impact, d.currency)} at ${elasticityText(d.estimate)}`
}
