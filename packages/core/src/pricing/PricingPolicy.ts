import { Schema } from "effect"

/**
 * How a recommended price is shaped (see docs/pricing.md, "Rounding modes"):
 * - `none`: any minor unit (12.37).
 * - `99`, `95`: charm endings, x.99 / x.95.
 * - `49_99`: the nearer of x.49 and x.99.
 * - `whole`: whole major units (13.00).
 * The ending applies to the two digits after the major unit; currencies without decimals (JPY, KRW)
 * use the last two digits instead (¥1,299 / ¥1,300).
 */
export const RoundingMode = Schema.Literals(["none", "99", "95", "49_99", "whole"])
export type RoundingMode = typeof RoundingMode.Type

/**
 * What a recommended price maximises (see docs/pricing.md, "The objective"):
 * - `profit`: expected monthly profit (price − cost) × expected units, within the guardrails;
 * - `target_margin`: the first version's rule, the target-margin price cost / (1 − targetMargin).
 */
export const PricingObjective = Schema.Literals(["profit", "target_margin"])
export type PricingObjective = typeof PricingObjective.Type

// Ratios are plain fractions (0.35 = 35 %), never money.
const FractionBelowOne = Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0), Schema.isLessThan(1))

/** A workspace's pricing rules: what margin to aim for, what never to cross, how far one run may move a price. */
export const PricingPolicy = Schema.Struct({
  /** The margin a recommendation aims for: price = cost / (1 - targetMargin). */
  targetMargin: FractionBelowOne,
  /** The margin no recommendation goes below: the floor is cost / (1 - minMargin) (or min_price, if higher). */
  minMargin: FractionBelowOne,
  /** The largest move of one run, as a fraction of the current price (0.10 = ±10 %). */
  maxChangePct: Schema.Finite.check(Schema.isGreaterThan(0)),
  rounding: RoundingMode,
  /** A move smaller than this fraction of the current price is noise and is not recommended. */
  threshold: FractionBelowOne,
  objective: PricingObjective,
  /** The elasticity assumed when no item of the workspace has a usable price history; negative. */
  defaultElasticity: Schema.Finite.check(Schema.isLessThan(0), Schema.isGreaterThanOrEqualTo(-10)),
  /** At most this fraction above an item's competitor price (0.05 = 5 %); null = no positioning limit. */
  maxPremiumOverCompetitor: Schema.NullOr(Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))),
  /**
   * (`profit`) A move is advised only when its expected monthly profit change is at least this share of
   * the item's monthly profit now (0.01 = 1 %): smaller gains are within what the estimate cannot tell
   * from noise. 0 ≤ g < 1.
   */
  minExpectedGain: FractionBelowOne
}).check(
  Schema.makeFilter((policy) =>
    policy.minMargin <= policy.targetMargin
      ? undefined
      : { path: ["minMargin"], issue: "minMargin must not be above targetMargin" }
  )
)
export type PricingPolicy = typeof PricingPolicy.Type

/**
 * What a new workspace starts with. The competitor limit, 10 % above an item's competitor price, only
 * acts on items imported with a `competitor_price`: the demand curve does not see the competitor, so
 * without it the engine would raise prices far above the competitor on a model blind to it.
 */
export const defaultPricingPolicy: PricingPolicy = {
  targetMargin: 0.35,
  minMargin: 0.15,
  maxChangePct: 0.1,
  rounding: "99",
  threshold: 0.01,
  objective: "profit",
  defaultElasticity: -1.5,
  maxPremiumOverCompetitor: 0.1,
  minExpectedGain: 0.01
}
