/**
 * Golden cases of the `profit` objective, computed by hand (with a calculator, step by step below).
 * Policy: the default (profit, target 35 %, minimum 15 %, step ±10 %, threshold 1 %, prior −1.5) with
 * rounding `none`, so that the arithmetic is not hidden behind charm endings. Each catalog is priced by
 * analyseCatalog, which pools the elasticities over the catalog first.
 *
 * Notation: a point (p, q) weighs w = 1 / (1/q + 0.0025); the item's fit is the weighted least-squares slope
 * b of ln q on ln p with variance 1 / Σw(x − x̄)² (times the residuals' excess, at least 1); the pool of k
 * items has spread τ² = 0.25 when k < 3; the item's estimate is the precision-weighted mean of its fit and
 * its pool, its interval ±1.974 sd (z90 1.645 × the calibration 1.2); impact = q·(p'/p)^e·(p' − c) − q·(p − c).
 */
import { assert, describe, it } from "@effect/vitest"
import { analyseCatalog, type PricingInput } from "../src/Pricing.ts"
import type { PricingPolicy } from "../src/PricingPolicy.ts"
import { pricingInput, pricingPolicy } from "../testing/PricingFixtures.ts"

const policy = (overrides: Partial<PricingPolicy> = {}) => pricingPolicy({ rounding: "none", ...overrides })

/** The recommendation of the catalog's first item (by sku), as the fields a case checks. */
const first = (catalog: ReadonlyArray<Partial<PricingInput>>, overrides: Partial<PricingPolicy> = {}) => {
  const inputs = catalog.map((item, index) => pricingInput({ itemId: `item_${index}`, sku: `SKU-${index}`, ...item }))
  const recommendation = analyseCatalog(inputs, policy(overrides)).items[0]?.recommendation ?? null
  return recommendation === null
    ? null
    : {
        price: recommendation.recommendedPrice,
        rule: recommendation.rule,
        impact: recommendation.expectedMonthlyImpact,
        elasticity: recommendation.elasticity,
        interval: recommendation.elasticityInterval,
        source: recommendation.elasticitySource
      }
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

describe("Pricing golden cases, profit objective", () => {
  // Fit over the four points: b = −3.0010, variance 0.018629 (4 points, residuals within the noise).
  // Workspace pool of one item: the fit with τ² = 0.25 (mean −3.0010, variance 0.26863), shrunk toward the
  // prior −1.5 (variance 1): mean −2.6832, variance 0.21175; the item's prior is N(−2.6832, 0.46175).
  // Item: precision 1/0.46175 + 1/0.018629 = 55.845; mean (−2.6832/0.46175 − 3.0010/0.018629) / 55.845 =
  // −2.9887 → −2.99; sd 0.13382, half-width 1.974 × 0.13382 = 0.26414, interval [−3.2528, −2.7246] →
  // [−3.26, −2.72]; source item (its own weight 96 %).
  // Optimum at the point 620 × 2.99 / 1.99 = 931.56 is a cut; at the pessimistic end (−2.72, the less elastic
  // for a cut) 620 × 2.72 / 1.72 = 980.47: the move heads there (within the step [900, 1100]) → 980.
  // Impact at −2.99: 1000 × (0.98)^−2.99 × 360 − 1000 × 380 = 1062.27 × 360 − 380,000 = +2,416;
  // at −3.26: +4,508, at −2.72: +336: positive at both ends, so it is recommended.
  it("an elastic item with an interior optimum: cut toward it, no further than the pessimistic end allows", () => {
    assert.deepStrictEqual(first([{ cost: 620, unitsSold30d: 1000, priceHistory: elasticHistory }]), {
      price: 980,
      rule: "above_profit_optimum",
      impact: 2416,
      elasticity: -2.99,
      interval: [-3.26, -2.72],
      source: "item"
    })
  })

  // Fit b = −0.508 (variance 0.0154 after shrinking, sd 0.12410), point −0.51, interval −0.508 ± 1.974 ×
  // 0.12410 = [−0.7529, −0.2631] → [−0.76, −0.26]: inelastic, so no optimum: raise at most toward the
  // target-margin price 700 / 0.65 = 1076.92 → 1077 (within the step).
  // Impact at −0.51: 1000 × 1.077^−0.51 × 377 − 300,000 = +63,004; at −0.76 +56,334, at −0.26 +69,799.
  it("an inelastic item below the target margin: raised toward the target price, never beyond", () => {
    assert.deepStrictEqual(first([{ cost: 700, unitsSold30d: 1000, priceHistory: inelasticHistory }]), {
      price: 1077,
      rule: "below_target_margin",
      impact: 63004,
      elasticity: -0.51,
      interval: [-0.76, -0.26],
      source: "item"
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

  // Item 0 (no history, cost 8.00, tag mugs) borrows from the tag pool built by item 1 (the elastic history):
  // tag pool mean −2.8841 (the fit −3.0010 with τ² 0.25, shrunk toward the workspace's −2.6832 ± (0.21175 +
  // 0.25)), variance 0.16983; the item's prior variance 0.16983 + 0.25 = 0.41983, sd 0.64794: interval
  // −2.8841 ± 1.974 × 0.64794 = −2.8841 ± 1.2789 = [−4.1630, −1.6052] → [−4.17, −1.60], point −2.88, source
  // pooled. Optimum 800 × 2.88 / 1.88 = 1225.53 is a raise; at the pessimistic end (−4.17, the more elastic
  // for a raise) 800 × 4.17 / 3.17 = 1052.37 → 1052.
  // Impact at −2.88: 100 × 1.052^−2.88 × 252 − 20,000 = 86.42 × 252 − 20,000 = +1,777; at −4.17 +398,
  // at −1.60 +3,237.
  it("an item without history priced from its tag's pooled estimate", () => {
    assert.deepStrictEqual(
      first([
        { cost: 800, tags: ["mugs"] },
        { cost: 620, unitsSold30d: 1000, priceHistory: elasticHistory, tags: ["mugs"] }
      ]),
      {
        price: 1052,
        rule: "below_profit_optimum",
        impact: 1777,
        elasticity: -2.88,
        interval: [-4.17, -1.6],
        source: "pooled"
      }
    )
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
