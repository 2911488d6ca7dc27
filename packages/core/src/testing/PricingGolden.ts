/**
 * The pricing engine's golden cases, computed by hand: Pricing.golden.test.ts checks the engine
 * against them, and the run tests of apps/worker check whole runs on PostgreSQL against them.
 * Default policy: target 35 %, minimum 15 %, step ±10 %, rounding .99, threshold 1 %. Default item:
 * 10.00 USD, cost 6.50, 100 units a month, no limits. Each comment shows the arithmetic: T = target
 * price cost / 0.65, F = floor, S = step window, W = the prices rounding may choose from.
 */
import { assert } from "@effect/vitest"
import type { AlertKind } from "../alerts/AlertFinding.ts"
import type { ElasticitySource } from "../pricing/Elasticity.ts"
import type { PriceRecommendation, RuleCode } from "../pricing/PriceRecommendation.ts"
import type { PricingInput } from "../pricing/Pricing.ts"
import type { PricingPolicy } from "../pricing/PricingPolicy.ts"
import { JPY, KWD, pricingPolicy } from "./PricingFixtures.ts"

interface CaseOf<Price> {
  readonly name: string
  readonly policy?: Partial<PricingPolicy>
  readonly item: Partial<PricingInput>
  readonly price: Price
  /** The alerts, in the engine's order; none when absent. */
  readonly alerts?: ReadonlyArray<AlertKind>
  /** Elasticity, its source and sample size; [0, "prior", 0] when absent. */
  readonly elasticity?: readonly [number, ElasticitySource, number]
}

/** A case without a recommendation. */
export type NoPriceCase = CaseOf<null>

/** A case with a recommended price: every field of the recommendation it pins is required. */
export interface PricedCase extends CaseOf<number> {
  readonly rule: RuleCode
  readonly projectedMargin: number | null
  readonly impact: number
}

export type GoldenCase = NoPriceCase | PricedCase

/** The table is the `target_margin` objective's (the first version's rule): its policy, with a case's changes. */
export const goldenPolicy = (c: GoldenCase): PricingPolicy => pricingPolicy({ objective: "target_margin", ...c.policy })

export const goldenCases: ReadonlyArray<GoldenCase> = [
  // T = 650 / 0.65 = 1000 = price.
  { name: "at the target margin: nothing to do", item: {}, price: null },
  // T = 1076.92, F = 824, S = [900, 1100], W = [1001, 1100]; .99 neighbours 999 (outside W) and 1099.
  {
    name: "below target margin, .99 rounding",
    item: { cost: 700 },
    price: 1099,
    rule: "below_target_margin",
    projectedMargin: 399 / 1099,
    impact: 9900
  },
  // T = 923.08, S = [900, 1100], W = [900, 999]: the only .99 price is 999, a 0.01 move, under the 10.00 threshold.
  { name: "above target, but .99 leaves a move under the threshold", item: { cost: 600 }, price: null },
  // Same, rounding none: 923.08 -> 923.
  {
    name: "above target margin, no rounding",
    policy: { rounding: "none" },
    item: { cost: 600 },
    price: 923,
    rule: "above_target_margin",
    projectedMargin: 323 / 923,
    impact: -7700
  },
  // T = 1076.92 -> W = [1001, 1100]: .95 neighbours 995 (outside) and 1095.
  {
    name: "rounding .95",
    policy: { rounding: "95" },
    item: { cost: 700 },
    price: 1095,
    rule: "below_target_margin",
    projectedMargin: 395 / 1095,
    impact: 9500
  },
  // T = 680 / 0.65 = 1046.15; the .49/.99 grid: 999 (outside W) and 1049.
  {
    name: "rounding .49/.99 picks .49",
    policy: { rounding: "49_99" },
    item: { cost: 680 },
    price: 1049,
    rule: "below_target_margin",
    projectedMargin: 369 / 1049,
    impact: 4900
  },
  // T = 1076.92: .49/.99 neighbours 1049 (27.92 away) and 1099 (22.08 away).
  {
    name: "rounding .49/.99 picks the nearer .99",
    policy: { rounding: "49_99" },
    item: { cost: 700 },
    price: 1099,
    rule: "below_target_margin",
    projectedMargin: 399 / 1099,
    impact: 9900
  },
  // T = 1076.92: whole units 1000 (not a raise) and 1100.
  {
    name: "rounding to whole units",
    policy: { rounding: "whole" },
    item: { cost: 700 },
    price: 1100,
    rule: "below_target_margin",
    projectedMargin: 400 / 1100,
    impact: 10000
  },
  // Target margin 60 %: T = 401 / 0.4 = 1002.5, exactly between 1002 and 1003; threshold 0.
  {
    name: "an exact tie rounds up",
    policy: { rounding: "none", targetMargin: 0.6, threshold: 0 },
    item: { cost: 401 },
    price: 1003,
    rule: "below_target_margin",
    projectedMargin: 602 / 1003,
    impact: 300
  },
  // Target 50 %, step 50 %: T = 525 / 0.5 = 1050, exactly between the whole prices 1000 and 1100.
  {
    name: "an exact tie between whole units rounds up",
    policy: { rounding: "whole", targetMargin: 0.5, maxChangePct: 0.5 },
    item: { price: 900, cost: 525 },
    price: 1100,
    rule: "below_target_margin",
    projectedMargin: 575 / 1100,
    impact: 20000
  },
  // T = 655 / 0.65 = 1007.69: a 7.69 move, under the 10.00 threshold.
  { name: "a move under the threshold", policy: { rounding: "none" }, item: { cost: 655 }, price: null },
  // Target margin 50 %: T = 505 / 0.5 = 1010, a move of exactly the threshold, which is not more than it.
  {
    name: "a move of exactly the threshold",
    policy: { rounding: "none", targetMargin: 0.5 },
    item: { cost: 505 },
    price: null
  },
  // T = 1015.38 -> 1015: 15.38 needed, 15 moved, both over 10.
  {
    name: "a move just over the threshold",
    policy: { rounding: "none" },
    item: { cost: 660 },
    price: 1015,
    rule: "below_target_margin",
    projectedMargin: 355 / 1015,
    impact: 1500
  },
  // T = 1384.62, F = 1059 (900 / 0.85 = 1058.82), S = [900, 1100]: the step stops at 1100; W = [1059, 1100] -> 1099.
  {
    name: "the step limits a raise",
    item: { cost: 900 },
    price: 1099,
    rule: "step_limited",
    projectedMargin: 199 / 1099,
    impact: 9900,
    alerts: ["below_floor"]
  },
  // T = 1076.92 from 20.00: S = [1800, 2200] stops at 1800; W = [1800, 1999] -> .99 neighbours 1799 (outside), 1899.
  {
    name: "the step limits a cut",
    item: { price: 2000, cost: 700, unitsSold30d: 10 },
    price: 1899,
    rule: "step_limited",
    projectedMargin: 1199 / 1899,
    impact: -1010
  },
  // F = 1000 / 0.85 = 1176.47 -> 1177 > 1100, the top of the step: the floor wins; 1099 < F, so round up to 1199.
  {
    name: "the floor wins over the step and rounds up",
    item: { cost: 1000 },
    price: 1199,
    rule: "floor_exceeds_step",
    projectedMargin: 199 / 1199,
    impact: 19900,
    alerts: ["below_floor"]
  },
  // Cost 12.00 > price: F = 1411.76 -> 1412, beyond the step; .99 -> 1499. Impact 100 * 499.
  {
    name: "negative margin",
    item: { cost: 1200 },
    price: 1499,
    rule: "floor_exceeds_step",
    projectedMargin: 299 / 1499,
    impact: 49900,
    alerts: ["negative_margin", "below_floor"]
  },
  // F = 680 / 0.85 = 800 exactly (not 801). S = [711, 869] stops the 1046.15 target at 869;
  // W = [800, 869] holds no .99 price (799, 899), so the price stays unrounded.
  {
    name: "no .99 price fits the limits: left unrounded",
    item: { price: 790, cost: 680 },
    price: 869,
    rule: "step_limited",
    projectedMargin: 189 / 869,
    impact: 7900,
    alerts: ["below_floor"]
  },
  // MAP 12.00 above T = 1000: F = 1200; from 13.00 the cut stops at the floor.
  {
    name: "MAP above the target price holds the cut at the MAP",
    policy: { rounding: "none" },
    item: { price: 1300, minPrice: 1200 },
    price: 1200,
    rule: "above_target_margin",
    projectedMargin: 550 / 1200,
    impact: -10000
  },
  // F = 1250 (MAP); W = [1250, 1379]: rounding down to 1199 would break the MAP, so round up to 1299.
  {
    name: "MAP: rounding down would break the floor, so it rounds up",
    item: { price: 1380, minPrice: 1250 },
    price: 1299,
    rule: "above_target_margin",
    projectedMargin: 649 / 1299,
    impact: -8100
  },
  // From 13.00 with MAP 12.00 and .99: W = [1200, 1299] -> 1299, a 0.01 move, under the threshold.
  { name: "MAP with .99 leaves nothing worth recommending", item: { price: 1300, minPrice: 1200 }, price: null },
  // T = 1076.92 capped by max price 10.50.
  {
    name: "the ceiling caps a raise",
    policy: { rounding: "none" },
    item: { cost: 700, maxPrice: 1050 },
    price: 1050,
    rule: "below_target_margin",
    projectedMargin: 350 / 1050,
    impact: 5000
  },
  // 11.00 above max price 10.50, within the step.
  {
    name: "above the ceiling",
    policy: { rounding: "none" },
    item: { price: 1100, cost: 700, maxPrice: 1050 },
    price: 1050,
    rule: "above_ceiling",
    projectedMargin: 350 / 1050,
    impact: -5000
  },
  // Max price 15.00 below the step's bottom 18.00: the ceiling wins.
  {
    name: "the ceiling wins over the step",
    policy: { rounding: "none" },
    item: { price: 2000, cost: 700, maxPrice: 1500 },
    price: 1500,
    rule: "ceiling_exceeds_step",
    projectedMargin: 800 / 1500,
    impact: -50000
  },
  // Same with .99: W = [824, 1500] -> 1499 (1599 is above the ceiling).
  {
    name: "the ceiling wins and .99 rounds down",
    item: { price: 2000, cost: 700, maxPrice: 1500 },
    price: 1499,
    rule: "ceiling_exceeds_step",
    projectedMargin: 799 / 1499,
    impact: -50100
  },
  // F = 1059 above max price 10.00: an alert, no price.
  {
    name: "floor above ceiling: an alert, not a price",
    item: { cost: 900, maxPrice: 1000 },
    price: null,
    alerts: ["below_floor", "floor_above_ceiling"]
  },
  { name: "missing cost", item: { cost: null }, price: null, alerts: ["missing_cost"] },
  // No cost: F = MAP 10.50; W = [1050, 1100] -> 1099. Impact is the revenue change 100 * 99.
  {
    name: "missing cost, below the MAP",
    item: { cost: null, minPrice: 1050 },
    price: 1099,
    rule: "below_floor",
    projectedMargin: null,
    impact: 9900,
    alerts: ["below_floor", "missing_cost"]
  },
  {
    name: "missing cost, above the max price",
    policy: { rounding: "none" },
    item: { cost: null, maxPrice: 950 },
    price: 950,
    rule: "above_ceiling",
    projectedMargin: null,
    impact: -5000,
    alerts: ["missing_cost"]
  },
  // A 0.05 breach of the MAP is under the threshold but breaks a hard limit: recommended anyway.
  {
    name: "a limit breach is recommended even under the threshold",
    policy: { rounding: "none" },
    item: { cost: null, minPrice: 1005 },
    price: 1005,
    rule: "below_floor",
    projectedMargin: null,
    impact: 500,
    alerts: ["below_floor", "missing_cost"]
  },
  // Cost 0: every price has a 100 % margin; there is no target price to move to.
  { name: "zero cost", item: { cost: 0 }, price: null },
  // Price 0: the step window is [0, 0]; F = 118 wins; .99 -> 199. Profit 100 * 99 - 100 * (0 - 100).
  {
    name: "zero price",
    item: { price: 0, cost: 100 },
    price: 199,
    rule: "floor_exceeds_step",
    projectedMargin: 99 / 199,
    impact: 19900,
    alerts: ["negative_margin", "below_floor"]
  },
  // JPY has no decimals: .99 means the last two digits. T = 5384.62, S = [4500, 5500]: 5299 or 5399.
  {
    name: "JPY with .99: the last two digits",
    item: { currency: JPY, price: 5000, cost: 3500 },
    price: 5399,
    rule: "below_target_margin",
    projectedMargin: 1899 / 5399,
    impact: 39900
  },
  {
    name: "JPY whole: hundreds",
    policy: { rounding: "whole" },
    item: { currency: JPY, price: 5000, cost: 3500 },
    price: 5400,
    rule: "below_target_margin",
    projectedMargin: 1900 / 5400,
    impact: 40000
  },
  // KWD has 3 decimals: .99 is .990. T = 10769.23 -> 10990 (9990 is below the price).
  {
    name: "KWD with .99: .990",
    item: { currency: KWD, price: 10000, cost: 7000 },
    price: 10990,
    rule: "below_target_margin",
    projectedMargin: 3990 / 10990,
    impact: 99000
  },
  // Arc elasticity of (1000, 100) and (1100, 80): (-20 / 90) / (100 / 1050) = -2.33.
  // Units 10 * (1899 / 2000)^-2.33 = 11.2833; profit 11.2833 * 1199 - 10 * 1300 = 528.69.
  {
    name: "arc elasticity from two price points",
    item: {
      price: 2000,
      cost: 700,
      unitsSold30d: 10,
      priceHistory: [
        { price: 1000, units: 100 },
        { price: 1100, units: 80 }
      ]
    },
    price: 1899,
    rule: "step_limited",
    projectedMargin: 1199 / 1899,
    impact: 529,
    elasticity: [-2.33, "item", 2]
  },
  // Least-squares slope of ln(units) on ln(price) over three points: -2.446 -> -2.45.
  // Units 10 * (1899 / 2000)^-2.45; profit change 613.08.
  {
    name: "log-log elasticity from three price points",
    item: {
      price: 2000,
      cost: 700,
      unitsSold30d: 10,
      priceHistory: [
        { price: 1000, units: 100 },
        { price: 1100, units: 80 },
        { price: 1200, units: 64 }
      ]
    },
    price: 1899,
    rule: "step_limited",
    projectedMargin: 1199 / 1899,
    impact: 613,
    elasticity: [-2.45, "item", 3]
  },
  // Demand rising with the price is not believed: elasticity 0, with the sample size said.
  {
    name: "a positive elasticity estimate falls back to zero",
    item: {
      cost: 700,
      priceHistory: [
        { price: 1000, units: 80 },
        { price: 1100, units: 100 }
      ]
    },
    price: 1099,
    rule: "below_target_margin",
    projectedMargin: 399 / 1099,
    impact: 9900,
    elasticity: [0, "prior", 2]
  },
  { name: "cost changed since the previous run", item: { previousCost: 600 }, price: null, alerts: ["cost_changed"] },
  { name: "cost unchanged since the previous run", item: { previousCost: 650 }, price: null },
  { name: "the store price drifted", item: { storePrice: 1050 }, price: null, alerts: ["price_drift"] },
  { name: "the store price matches", item: { storePrice: 1000 }, price: null }
]

/**
 * A recommendation agrees with its golden case in every field the case pins: price, rule, impact,
 * projected margin and elasticity. A case without a price has nothing to agree with: that fails.
 */
export const checkGoldenRecommendation = (c: GoldenCase, recommendation: PriceRecommendation) => {
  if (c.price === null) return assert.fail(`${c.name}: the case expects no recommendation`)
  assert.strictEqual(recommendation.recommendedPrice, c.price, `${c.name}: price`)
  assert.strictEqual(recommendation.rule, c.rule, `${c.name}: rule`)
  assert.strictEqual(recommendation.expectedMonthlyImpact, c.impact, `${c.name}: impact`)
  const margin = recommendation.projectedMargin
  if (c.projectedMargin === null) assert.isNull(margin, `${c.name}: projected margin`)
  else assert.closeTo(margin ?? Number.NaN, c.projectedMargin, 1e-12, `${c.name}: projected margin`)
  const [elasticity, source, sampleSize] = c.elasticity ?? [0, "prior", 0]
  assert.deepStrictEqual(
    [recommendation.elasticity, recommendation.elasticitySource, recommendation.elasticitySampleSize],
    [elasticity, source, sampleSize],
    `${c.name}: elasticity`
  )
}
