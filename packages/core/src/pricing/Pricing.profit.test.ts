/**
 * Golden cases of the `profit` objective, computed by hand (with a calculator, step by step below).
 * Policy: the default (profit, target 35 %, minimum 15 %, step ±10 %, threshold 1 %, prior −1.5) with
 * rounding `none`, so that the arithmetic is not hidden behind charm endings. Each catalog is priced by
 * analyseCatalog, which pools the elasticities over the catalog first.
 *
 * Notation: a point (p, q) weighs w = 1 / (1/q + 0.0025) × 0.8^age / (1 + (ln(p / price) / 0.15)²) (the local
 * fit, ElasticityFit); the item's fit is the weighted least-squares slope b of ln q on ln p with variance
 * 1 / Σw(x − x̄)² (times the residuals' excess, at least 1). Cases that check the estimate price one item
 * under a hand-made pool (withPool), so that the arithmetic is the item's own; its estimate is the
 * precision-weighted mean of its fit and its pool, its interval ±1.974 sd (z90 1.645 × the calibration
 * 1.2); impact = q·(p'/p)^e·(p' − c) − q·(p − c) (no curvature in those pools).
 */
import { assert, describe, it } from "@effect/vitest"
import { pricingInput, pricingPolicy } from "../testing/PricingFixtures.ts"
import { noCompetitorEffect } from "./CompetitorEffect.ts"
import type { ElasticityPools, Pool } from "./ElasticityPools.ts"
import { analyseCatalog, analyseItem, type PriceRecommendation, type PricingInput } from "./Pricing.ts"
import type { PricingPolicy } from "./PricingPolicy.ts"

const policy = (overrides: Partial<PricingPolicy> = {}) => pricingPolicy({ rounding: "none", ...overrides })

/** A recommendation as the fields a case checks. */
const fields = (recommendation: PriceRecommendation | null) =>
  recommendation === null
    ? null
    : {
        price: recommendation.recommendedPrice,
        rule: recommendation.rule,
        impact: recommendation.expectedMonthlyImpact,
        elasticity: recommendation.elasticity,
        interval: recommendation.elasticityInterval,
        source: recommendation.elasticitySource
      }

/** The recommendation of the catalog's first item (by sku), as the fields a case checks. */
const first = (catalog: ReadonlyArray<Partial<PricingInput>>, overrides: Partial<PricingPolicy> = {}) => {
  const inputs = catalog.map((item, index) => pricingInput({ itemId: `item_${index}`, sku: `SKU-${index}`, ...item }))
  return fields(analyseCatalog(inputs, policy(overrides)).items[0]?.recommendation ?? null)
}

// Units at 10.00 are 1,000; the history lies on e = −3: 1000 × 0.8^−3 = 1953, 1.25^−3 → 512, 1.5^−3 → 296.
const elasticHistory = [
  { price: 800, units: 1953 },
  { price: 1250, units: 512 },
  { price: 1500, units: 296 }
]
// The same on e = −0.5: 1000 × 0.8^−0.5 = 1118, 1.25^−0.5 → 894, 1.5^−0.5 → 816.
const inelasticHistory = [
  { price: 800, units: 1118 },
  { price: 1250, units: 894 },
  { price: 1500, units: 816 }
]

/** A pool made by hand, so that a case's arithmetic is the item's own: mean `mean`, variance 0.01, spread 0.04. */
const handPool = (mean: number): ElasticityPools => {
  const pool: Pool = {
    mean,
    variance: 0.01,
    spread: 0.04,
    competitor: noCompetitorEffect,
    curvature: 0,
    curvatureVariance: 0,
    shift: 0,
    shiftVariance: 0,
    levels: [],
    competitorResponse: 0
  }
  return { workspace: pool, hasEvidence: true, byTag: new Map([["mugs", pool]]), reference: null }
}

/** The recommendation of one item tagged mugs priced under `handPool(mean)`, as the fields a case checks. */
const withPool = (item: Partial<PricingInput>, mean: number, overrides: Partial<PricingPolicy> = {}) => {
  return fields(
    analyseItem(pricingInput({ tags: ["mugs"], ...item }), policy(overrides), handPool(mean)).recommendation
  )
}

describe("Pricing golden cases, profit objective", () => {
  // With a hand-made pool (withPool below): the tag mugs at −3.00, variance 0.01 and spread 0.04, so the item's
  // prior is N(−3, 0.05); no curvature, period effect or competitor. The fit is local (ElasticityFit): a point
  // weighs its count precision 1 / (1/q + 0.0025) times 0.8^age / (1 + (d / 0.15)²), d = ln(p / 10.00):
  //   8.00: 332.0017 × 0.8³ / (1 + (−0.22314 / 0.15)²) = 332.0017 × 0.159351 = 52.9049
  //  12.50: 224.5614 × 0.8² / (1 + (0.22314 / 0.15)²)  = 224.5614 × 0.199189 = 44.7302
  //  15.00: 170.1149 × 0.8 / (1 + (0.40547 / 0.15)²)   = 170.1149 × 0.096307 = 16.3833
  //  10.00 (now): 285.7143 × 1 = 285.7143
  // Slope b = −3.000754 (the points lie on e = −3 up to the rounding of their units), Σw(x − x̄)² = 7.4969,
  // variance 1 / 7.4969 = 0.133388. Estimate: precision 1/0.05 + 1/0.133388 = 27.4969, mean (−3/0.05 −
  // 3.000754/0.133388) / 27.4969 = −3.000206 → −3.00; variance 0.036368, sd 0.190703, half-width 1.974 ×
  // 0.190703 = 0.376415: [−3.3766, −2.6238] → [−3.38, −2.62]; the item's own share 7.4969 / 27.4969 = 27 %:
  // source pooled. The check of the last prediction: from 15.00 (296 units) the history before it predicts
  // e = −3.000525 (variance 0.039536), ln(1000.5 / 296.5) = 1.216208 against −0.405465 × −3.000525 = 1.216608:
  // z = −0.0033, no miss. The last change was a cut (15.00 → 10.00), so a cut is no reversal: not damped.
  // Optimum at the point 600 × 3 / 2 = 900 is a cut. The move is sized on half the doubt (CautiousGain, no
  // curvature here): at −3 + 0.38 / 2 = −2.81, 600 × 2.81 / 1.81 = 931.49 → 931, which at the pessimistic end
  // (−2.62) loses: 1000 × 0.931^−2.62 × 331 − 400,000 = −810. So it is sized on the full doubt: the optimum at
  // −2.62, 600 × 2.62 / 1.62 = 970.37 → 970. Impact at −3.00: 1000 × 0.97^−3 × 370 − 400,000 = +5,403; at −3.38
  // +10,122, at −2.62 +737; and 5,403 is above the materiality floor, 1 % of the monthly profit 1000 × 4.00 = 4,000.
  it("an elastic item with an interior optimum: cut toward it, no further than the pessimistic end allows", () => {
    assert.deepStrictEqual(withPool({ cost: 600, unitsSold30d: 1000, priceHistory: elasticHistory }, -3), {
      price: 970,
      rule: "above_profit_optimum",
      impact: 5403,
      elasticity: -3,
      interval: [-3.38, -2.62],
      source: "pooled"
    })
    // A floor of 2 % of the monthly profit (8,000) is above the 5,403 expected: no recommendation.
    assert.isNull(
      withPool({ cost: 600, unitsSold30d: 1000, priceHistory: elasticHistory }, -3, { minExpectedGain: 0.02 })
    )
  })

  // The same item at cost 7.50: P / (P − cost) = 4, so low + 4 = 0.62 > 0: a raise. The point's optimum 750 × 3 / 2
  // = 1125 is beyond the step; sized on half the doubt, −3 − 0.38 / 2 = −3.19: 750 × 3.19 / 2.19 = 1092.47. The
  // last change was a cut (15.00 → 10.00), so this raise reverses it and goes half the way: 1046.23 → 1046. It
  // pays at the pessimistic end, 1000 × 1.046^−3.38 × 296 − 250,000 = +4,258, and at the point +8,641, above 1 %
  // of the monthly profit (2,500). Sized on the full doubt alone it would have aimed at 750 × 3.38 / 2.38 =
  // 1065.13, half the way 1032.56: a smaller step for the same trust.
  it("an elastic item below its optimum: raised toward the optimum sized on half the doubt", () => {
    assert.deepStrictEqual(withPool({ cost: 750, unitsSold30d: 1000, priceHistory: elasticHistory }, -3), {
      price: 1046,
      rule: "below_profit_optimum",
      impact: 8641,
      elasticity: -3,
      interval: [-3.38, -2.62],
      source: "pooled"
    })
  })

  // The same weights on the inelastic history (e = −0.5): b = −0.501187, variance 0.111568; with the pool at
  // −0.50 (prior N(−0.5, 0.05)): mean −0.500367 → −0.50, variance 0.034527, sd 0.185813, half-width 0.366763:
  // [−0.8671, −0.1336] → [−0.87, −0.13]. Inelastic, so no optimum: raise at most toward the target-margin price
  // 700 / 0.65 = 1076.92 → 1077 (within the step). Impact at −0.50: 1000 × 1.077^−0.5 × 377 − 300,000 =
  // +63,273; at −0.87 +53,438, at −0.13 +73,382.
  it("an inelastic item below the target margin: raised toward the target price, never beyond", () => {
    assert.deepStrictEqual(withPool({ cost: 700, unitsSold30d: 1000, priceHistory: inelasticHistory }, -0.5), {
      price: 1077,
      rule: "below_target_margin",
      impact: 63273,
      elasticity: -0.5,
      interval: [-0.87, -0.13],
      source: "pooled"
    })
  })

  it("says why an unmeasured or inelastic item only goes up", () => {
    const sentence = (item: Partial<PricingInput>) =>
      analyseCatalog([pricingInput(item)], policy()).items[0]?.recommendation?.explanation ?? ""
    assert.include(
      sentence({ cost: 700, unitsSold30d: 1000, priceHistory: inelasticHistory }),
      "Objective: the highest expected profit; demand looks inelastic, so the price only goes up, toward the target margin."
    )
    assert.include(sentence({ cost: 700 }), "demand is not measured yet, so the price only goes up")
  })

  // Margin 40 % is above the 35 % target: an inelastic item is never cut.
  it("an inelastic item above the target margin: no cut", () => {
    assert.isNull(first([{ cost: 600, unitsSold30d: 1000, priceHistory: inelasticHistory }]))
  })

  // No history anywhere: the prior −1.5 with sd 0.5, interval −1.5 ± 1.974 × 0.5 = −1.5 ± 0.9869 →
  // [−2.49, −0.51], source prior. Unknown demand: at most toward the target 1076.92 → 1077. Impact
  // 100 × 1.077^−1.5 × 377 − 30,000 = 89.47 × 377 − 30,000 = +3,730; at −2.49 +1,342, at −0.51 +6,300.
  it("no history anywhere: the policy's prior, and only a raise toward the target margin", () => {
    assert.deepStrictEqual(first([{ cost: 700 }]), {
      price: 1077,
      rule: "below_target_margin",
      impact: 3730,
      elasticity: -1.5,
      interval: [-2.49, -0.51],
      source: "prior"
    })
    // Above the target margin with unknown demand: no cut.
    assert.isNull(first([{ cost: 600 }]))
  })

  // An item without history takes its pool: mugs at −2.80, prior variance 0.01 + 0.04 = 0.05, half-width
  // 1.974 × 0.223607 = 0.441361: [−3.2414, −2.3586] → [−3.25, −2.35], source pooled. Optimum 800 × 2.8 / 1.8
  // = 1244.44 is a raise; at the pessimistic end (−3.25) 800 × 3.25 / 2.25 = 1155.56: further than the step,
  // so this run moves to 1100 (step_limited). Impact at −2.80: 100 × 1.1^−2.8 × 300 − 20,000 = +2,973; at
  // −3.25 +2,009, at −2.35 +3,980; the materiality floor is 1 % of 20,000 = 200.
  it("an item without history priced from its tag's pooled estimate", () => {
    assert.deepStrictEqual(withPool({ cost: 800 }, -2.8), {
      price: 1100,
      rule: "step_limited",
      impact: 2973,
      elasticity: -2.8,
      interval: [-3.25, -2.35],
      source: "pooled"
    })
  })

  // Competitor at 9.00, at most 5 % above it: ceiling ⌊900 × 1.05⌋ = 945 < 10.00, a restoration (always
  // recommended, within the step). Impact at the prior −1.5: 100 × 0.945^−1.5 × 445 − 50,000 = −1,559;
  // the prior's interval −1.5 ± 0.9869 → [−2.49, −0.51].
  it("a competitor ceiling brings the price down, whatever it costs, and says so", () => {
    const competitor = first([{ cost: 500, competitorPrice: 900 }], { maxPremiumOverCompetitor: 0.05 })
    assert.deepStrictEqual(competitor, {
      price: 945,
      rule: "above_competitor_limit",
      impact: -1559,
      elasticity: -1.5,
      interval: [-2.49, -0.51],
      source: "prior"
    })
    const [item] = analyseCatalog(
      [pricingInput({ cost: 500, competitorPrice: 900 })],
      policy({ maxPremiumOverCompetitor: 0.05 })
    ).items
    assert.strictEqual(
      item?.recommendation?.explanation,
      "The price is above the competitor limit of 9.45 USD (at most 5.0% above the competitor's 9.00 USD): lower the price from 10.00 USD to 9.45 USD (projected margin 47.1%); expected monthly profit change -15.59 USD at an elasticity of -1.50 (the policy's prior, no price history yet; 90% interval -2.49 to -0.51). Objective: the highest expected profit, but the limit comes first and costs 15.59 USD a month."
    )
  })

  // MAP 11.00 above the price: floor 1100 = the step's top; a restoration. At the prior −4 (policy): units
  // 100 × 1.1^−4 = 68.30, profit 68.30 × 600 − 50,000 = −9,019: recommended all the same, the cost said.
  // Interval −4 ± 1.974 × 0.5 = −4 ± 0.9869 → [−4.99, −3.01].
  it("a guardrail restoration at a loss is still recommended, with its cost", () => {
    assert.deepStrictEqual(first([{ cost: 500, minPrice: 1100 }], { defaultElasticity: -4 }), {
      price: 1100,
      rule: "below_floor",
      impact: -9019,
      elasticity: -4,
      interval: [-4.99, -3.01],
      source: "prior"
    })
  })
})
