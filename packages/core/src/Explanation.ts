import type { ElasticityEstimate } from "./Elasticity.ts"
import { type CurrencyCode, formatMoney } from "./Money.ts"
import type { RuleCode } from "./PriceRecommendation.ts"

/** 0.354 -> "35.4%" (one decimal, half up; integer arithmetic because toFixed is slow in the hot loop). */
export const formatPercent = (ratio: number): string => {
  const tenths = Math.round(ratio * 1000)
  const abs = Math.abs(tenths)
  return `${tenths < 0 ? "-" : ""}${Math.floor(abs / 10)}.${abs % 10}%`
}

/** Where an item's floor comes from, in words: its min_price (MAP) or the policy's minimum margin. */
export const floorReason = (floorIsMinPrice: boolean, minMargin: number): string =>
  floorIsMinPrice ? "the minimum price" : `the ${formatPercent(minMargin)} minimum margin`

/** Which limit shaped the price a recommendation heads for. */
export type GoalKind = "target" | "floor" | "ceiling"

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
  /** The price the rules call for before the step limit and rounding. */
  readonly goal: number
  readonly goalKind: GoalKind
  readonly estimate: ElasticityEstimate
  readonly impact: number
  readonly costKnown: boolean
}

const why = (d: PriceDecision): string => {
  const money = (amount: number) => formatMoney(amount, d.currency)
  const step = formatPercent(d.maxChangePct)
  switch (d.rule) {
    case "floor_exceeds_step":
      return `The floor of ${money(d.floor)} (${floorReason(d.floorIsMinPrice, d.minMargin)}) is more than the ${step} step away and wins over it`
    case "ceiling_exceeds_step":
      return `The maximum price of ${money(d.ceiling)} is more than the ${step} step away and wins over it`
    case "step_limited":
      return `Reaching ${money(Math.round(d.goal))} (${goalName(d)}) takes more than the ${step} step, so this run moves part of the way`
    case "below_floor":
      return `The price is below the floor of ${money(d.floor)} (${floorReason(d.floorIsMinPrice, d.minMargin)})`
    case "above_ceiling":
      return `The price is above the maximum price of ${money(d.ceiling)}`
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
    case "floor":
      return `the floor, ${floorReason(d.floorIsMinPrice, d.minMargin)}`
    case "ceiling":
      return "the maximum price"
  }
}

const margin = (ratio: number | null): string => (ratio === null ? "unknown" : formatPercent(ratio))

// A target-margin move the limits cut short says which limit it stopped at.
const limitNote = (d: PriceDecision): string => {
  if (d.rule !== "below_target_margin" && d.rule !== "above_target_margin") return ""
  if (d.goalKind === "floor")
    return `, held at the floor of ${formatMoney(d.floor, d.currency)} set by ${floorReason(d.floorIsMinPrice, d.minMargin)}`
  if (d.goalKind === "ceiling") return `, capped at the maximum price of ${formatMoney(d.ceiling, d.currency)}`
  return ""
}

const elasticityText = (estimate: ElasticityEstimate): string => {
  const points = `${estimate.sampleSize} price point${estimate.sampleSize === 1 ? "" : "s"}`
  switch (estimate.source) {
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

/** One sentence: why, from what price to what, the projected margin, and the expected monthly impact. */
export const explainRecommendation = (d: PriceDecision): string => {
  const projected =
    d.projectedMargin === null
      ? "margin unknown without a cost"
      : `projected margin ${formatPercent(d.projectedMargin)}`
  const verb = d.recommended > d.price ? "raise" : "lower"
  const measure = d.costKnown ? "profit" : "revenue"
  const sign = d.impact > 0 ? "+" : ""
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
    "); expected monthly ",
    measure,
    " change ",
    sign,
    formatMoney(d.impact, d.currency),
    " at ",
    elasticityText(d.estimate),
    "."
  ].join("")
}
