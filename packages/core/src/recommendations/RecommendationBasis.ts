import { Schema } from "effect"
import type { PricingPolicy } from "../pricing/PricingPolicy.ts"

/**
 * What a recommendation rested on besides the item's price and the elasticity estimate (both stored on
 * the recommendation itself): the cost, the competitor price and the policy of its run. A later run
 * compares them with its own to tell whether a recommendation the merchant turned down is worth
 * issuing again (DecisionMemory.ts). Null on recommendations stored before it was recorded.
 */
export const RecommendationBasis = Schema.Struct({
  /** Minor units; null = unknown. */
  cost: Schema.NullOr(Schema.Int),
  /** Minor units; null = none imported. */
  competitorPrice: Schema.NullOr(Schema.Int),
  /** The run's policy, as policyKey writes it. */
  policy: Schema.String
})
export type RecommendationBasis = typeof RecommendationBasis.Type

/** The policy's fields in the key's order, with the names the CLI and the docs give them. */
const policyFields = [
  ["targetMargin", "target_margin"],
  ["minMargin", "min_margin"],
  ["maxChangePct", "max_change_pct"],
  ["rounding", "rounding"],
  ["threshold", "threshold"],
  ["objective", "objective"],
  ["defaultElasticity", "default_elasticity"],
  ["maxPremiumOverCompetitor", "max_premium_over_competitor"]
] as const satisfies ReadonlyArray<readonly [keyof PricingPolicy, string]>

/**
 * A policy as one short string, its values in a fixed order ("0.35;0.15;0.1;99;0.01;profit;-1.5;0.1"):
 * every recommendation of a run stores it, so it is kept short; two policies are the same when their
 * keys are equal.
 */
export const policyKey = (policy: PricingPolicy): string =>
  policyFields.map(([field]) => String(policy[field] ?? "none")).join(";")

/** The fields two policy keys differ in, as "target_margin 0.35 -> 0.3". */
export const policyChanges = (before: string, after: string): ReadonlyArray<string> => {
  const old = before.split(";")
  const now = after.split(";")
  return policyFields.flatMap(([, name], index) =>
    old[index] === now[index] ? [] : [`${name} ${old[index] ?? "unknown"} -> ${now[index] ?? "unknown"}`]
  )
}

/** The limits a policy key's run applied to prices; null when the key does not read as one. */
export const policyLimitsOf = (
  key: string
): {
  readonly minMargin: number
  readonly maxChangePct: number
  readonly maxPremiumOverCompetitor: number | null
} | null => {
  const values = key.split(";")
  const numberAt = (field: keyof PricingPolicy): number | null => {
    const text = values[policyFields.findIndex(([name]) => name === field)]
    const value = text === undefined || text === "none" || text === "" ? Number.NaN : Number(text)
    return Number.isFinite(value) ? value : null
  }
  const minMargin = numberAt("minMargin")
  const maxChangePct = numberAt("maxChangePct")
  return minMargin === null || maxChangePct === null
    ? null
    : { minMargin, maxChangePct, maxPremiumOverCompetitor: numberAt("maxPremiumOverCompetitor") }
}
