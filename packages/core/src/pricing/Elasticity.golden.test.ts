/**
 * Golden cases of the estimator's parts (docs/pricing.md, "The estimate"), computed by hand step by step
 * (a calculator; the sums are written out). Logs are natural; a count q is logged as ln(q + 0.5) where the
 * part says so (PeriodEffects, DemandCurvature).
 */
import { assert, describe, it } from "@effect/vitest"
import { pricingInput, pricingPolicy } from "../testing/PricingFixtures.ts"
import { competitorEffect } from "./CompetitorEffect.ts"
import { curvatureOf } from "./DemandCurvature.ts"
import { profitOptimum } from "./DemandCurve.ts"
import { fitElasticity } from "./ElasticityFit.ts"
import { elasticityPools, type Pool } from "./ElasticityPools.ts"
import { levelEvidence, periodAge, periodChange, periodLevels } from "./PeriodEffects.ts"
import { checkPrediction } from "./PredictionCheck.ts"
import { analyseItem } from "./Pricing.ts"

const close = (actual: number | undefined, expected: number, digits = 5) =>
  assert.approximately(actual ?? Number.NaN, expected, 10 ** -digits)

// The points lie on e = −3 around 10.00 (1,000 units): 8.00 → 1953, 12.50 → 512, 15.00 → 296.
const elasticHistory = [
  { price: 800, units: 1953 },
  { price: 1250, units: 512 },
  { price: 1500, units: 296 }
]

describe("the local fit (ElasticityFit)", () => {
  // Weights: count precision 1 / (1/q + 0.0025) times 0.8^age / (1 + (ln(p / 10.00) / 0.15)²):
  //   8.00: 332.0017 × 0.8³ / (1 + 2.21296) = 332.0017 × 0.159351 = 52.9049
  //  12.50: 224.5614 × 0.8² / (1 + 2.21296) = 224.5614 × 0.199189 = 44.7302
  //  15.00: 170.1149 × 0.8 / (1 + 7.30679) = 170.1149 × 0.096307 = 16.3833
  //  10.00: 285.7143 (the current point: age 0, distance 0)
  // Σw = 399.7327; x̄ = Σw·x / Σw = 6.919810; Σw(x − x̄)² = 7.496908; slope −3.000754, variance 1 / 7.496908
  // = 0.133388 (the residuals are within the counting noise: no inflation). The anchor is the plain mean of the
  // four ln prices: (6.684612 + 7.130899 + 7.313220 + 6.907755) / 4 = 7.009122.
  it("weighs points by recency and by distance from the current price", () => {
    const fit = fitElasticity(elasticHistory, 1000, 1000)
    close(fit?.slope, -3.000754)
    close(fit?.variance, 0.133388)
    close(fit?.meanLogPrice, 6.91981)
    close(fit?.anchorLogPrice, 7.009122)
    // The current point's lever: w (x − x̄) / Σw(x − x̄)² = 285.7143 × (6.907755 − 6.919810) / 7.496908 = −0.459422.
    close(fit?.currentLever, -0.459422)
  })

  // A period effect of 0.1 read off the current point: the slope moves by −0.1 × −0.459422 = +0.045942, to
  // −2.954812; the weights and the variance do not change.
  it("reads the current period's units less its period effect", () => {
    const shifted = fitElasticity(elasticHistory, 1000, 1000, 0.1)
    close(shifted?.slope, -2.954812)
    close(shifted?.variance, 0.133388)
  })

  // With a competitor response of 1 and the competitor at 9.00 now: a point sold while it stood at 10.00 is read
  // 1 × ln(10.00 / 9.00) = 0.105361 lower, as if the competitor had been where it is now.
  it("reads past points at today's competitor price", () => {
    const moved = elasticHistory.map((point) => ({ ...point, competitorPrice: 1000 }))
    const plain = fitElasticity(elasticHistory, 1000, 1000, 0, { price: 900, response: 1 })
    const withCompetitor = fitElasticity(moved, 1000, 1000, 0, { price: 900, response: 1 })
    // Every past point is lowered by 0.105361, the current point not: the same as raising the current point by
    // it, a period effect of −0.105361: the slope moves by 0.105361 × −0.459422 = −0.048405, to −3.049159.
    close(plain?.slope, -3.000754)
    close(withCompetitor?.slope, -3.049159)
  })
})

describe("the demand curvature (DemandCurvature)", () => {
  // Three points at 9.00, 10.00 (now) and 11.00 with 1,200, 1,000 and 700 units: the quadratic through
  // (x, ln(q + 0.5)) is exact. x = ln(p / 10.00): −0.105361, 0, 0.095310; y: 7.090493, 6.908255, 6.551794.
  // Its x² coefficient is the second divided difference:
  //   7.090493 / ((−0.105361)(−0.200671)) + 6.908255 / ((0.105361)(−0.095310)) + 6.551794 / ((0.200671)(0.095310))
  //   = 335.3441 − 687.9279 + 342.5656 = −10.018123 (to the digits kept), so c = 2 × −10.018123 = −20.036247.
  // The weights do not matter for an exact fit, nor where the centre lies.
  it("is the bend of ln units in ln price", () => {
    const evidence = curvatureOf(
      [
        { price: 900, units: 1200 },
        { price: 1100, units: 700 }
      ],
      1000,
      1000
    )
    close(evidence?.curvature, -20.036247)
  })
})

describe("the profit optimum on a bending curve (DemandCurve)", () => {
  // Constant elasticity: cost × e / (1 + e) = 600 × −2 / −1 = 1200.
  // With c = −4 the optimum p solves p + (p − 600)(−2 − 4 ln(p / 10.00)) = 0, i.e. the margin (p − 600) / p equals
  // −1 / e(p): at p = 1070.9246, ln(p / 1000) = 0.068522, e(p) = −2.274089, margin 470.9246 / 1070.9246 =
  // 0.439736 = 1 / 2.274089. Demand that grows more elastic above the price stops the raise earlier.
  it("is where the margin equals −1 / e(p)", () => {
    close(profitOptimum(600, 1000, -2, 0), 1200)
    close(profitOptimum(600, 1000, -2, -4), 1070.924563, 3)
  })
})

describe("period effects (PeriodEffects, ElasticityPools)", () => {
  // Two items of tag t, each with one past point (10.00, 100 units) and no history before it, so the pools
  // before the period are the prior (−1.5, variance 0.25 with its spread). Each item's unexplained change:
  //   A, raised to 11.00, sold 80: x = ln 1.1 = 0.095310, ln(80.5 / 100.5) = −0.221901,
  //      r = −0.221901 − 0.095310 × −1.5 = −0.078935, variance 2 / 90.5 + 0.005 + 0.095310² × 0.25 = 0.029370;
  //   B, cut to 9.00, sold 110: x = −0.105361, ln(110.5 / 100.5) = 0.094858,
  //      r = 0.094858 − 0.158041 = −0.063183, variance 2 / 105.5 + 0.005 + 0.105361² × 0.25 = 0.026733.
  // Two items are too few to measure a spread: they borrow the prior's, 0.09. Weights 1 / (0.029370 + 0.09) =
  // 8.3773 and 1 / (0.026733 + 0.09) = 8.5666: mean −0.070971, variance 0.059018. The workspace's, shrunk toward
  // none (variance 0.09): (−0.070971 / 0.059018) / (1 / 0.059018 + 1 / 0.09) = −0.042863. The tag's, the same
  // mean shrunk toward the workspace's −0.042863 (variance 0.09): −0.059839. Both fell although one was cut:
  // the category's demand fell, which is not price response.
  it("a category's period effect is what its items' prices do not explain", () => {
    const pools = elasticityPools(
      [
        {
          tags: ["t"],
          price: 1100,
          unitsSold30d: 80,
          priceHistory: [{ price: 1000, units: 100 }],
          competitorPrice: null
        },
        {
          tags: ["t"],
          price: 900,
          unitsSold30d: 110,
          priceHistory: [{ price: 1000, units: 100 }],
          competitorPrice: null
        }
      ],
      -1.5
    )
    close(pools.workspace.shift, -0.042863)
    close(pools.byTag.get("t")?.shift, -0.059839)
  })
})

describe("the check of the last prediction (PredictionCheck)", () => {
  // Raised from 10.00 (100 units) to 11.00, sold 60; the evidence before said −1.5 (variance 0.01).
  // x = 0.095310; expected ln-change −1.5 × 0.095310 = −0.142965; seen ln(60.5 / 100.5) = −0.507514;
  // counting variance 2 / 80.5 + 0.005 = 0.029845, plus x² × 0.01 = 0.000091: sd 0.173019.
  // z = (−0.507514 + 0.142965) / 0.173019 = −2.106989: outside ±1.645, a miss. Widening (2.106989 / 1.644854)² =
  // 1.640855. The 90 % range of units: exp(ln 100.5 − 0.142965 ∓ 1.644854 × 0.173019) − 0.5 = 65 to 115.
  it("widens the uncertainty when the units sold fall outside the range predicted, and says by how much", () => {
    const change = periodChange([{ price: 1000, units: 100 }], 1100, 60, null)
    assert.isNotNull(change)
    if (change === null) return
    const check = checkPrediction(
      change,
      { mean: -1.5, variance: 0.01 },
      { curvature: 0, shift: 0, shiftVariance: 0, competitorResponse: 0 }
    )
    close(check.widening, 1.640855)
    assert.deepStrictEqual(check.miss, { predictedLow: 65, predictedHigh: 115, sold: 60 })
    // 80 units would be within the range: no widening.
    const within = periodChange([{ price: 1000, units: 100 }], 1100, 80, null)
    if (within !== null)
      assert.deepStrictEqual(
        checkPrediction(
          within,
          { mean: -1.5, variance: 0.01 },
          { curvature: 0, shift: 0, shiftVariance: 0, competitorResponse: 0 }
        ),
        { widening: 1, miss: null }
      )
  })
})

describe("the competitor's position (CompetitorEffect)", () => {
  // Two items at −3.5 (z = ln(p / competitor) = 0.1) and −2.5 (z = −0.1) around a pool at −3, variances 0.06
  // with spread 0.04: weights 10. Normal equations with the ridge 1 on each diagonal:
  // [1 + 20, 10·0.1 − 10·0.1; 0, 1 + 10·0.01 + 10·0.01] = [21, 0; 0, 1.2], right side
  // [10·(−0.5) + 10·0.5, 10·0.1·(−0.5) + 10·(−0.1)·0.5] = [0, −1]: level 0, slope −1 / 1.2 = −0.833333:
  // 10 % above the competitor, 0.083 more elastic.
  it("an item above its competitor is more elastic", () => {
    const effect = competitorEffect(
      [
        { m: { value: -3.5, variance: 0.06 }, position: 0.1 },
        { m: { value: -2.5, variance: 0.06 }, position: -0.1 }
      ],
      -3,
      0.04
    )
    close(effect.level, 0)
    close(effect.slope, -0.833333)
  })
})

describe("damping near the optimum (Pricing)", () => {
  // A pool at −3 (variance 0.01, spread 0.04), cost 5.60, 1,000 units now at 10.00, one past point on the
  // pool's curve: 1,372 units at 9.00 (raised since) or 751 at 11.00 (cut since): 1000 × 0.9^−3 = 1372 and
  // 1000 × 1.1^−3 = 751. The estimate stays at −3 (the fit agrees with the pool) and its pessimistic end for a
  // cut near −2.57. The move is sized on half the doubt (CautiousGain): −3 + (3 − 2.57) / 2 ≈ −2.785, whose
  // optimum 560 × 2.785 / 1.785 ≈ 874 is beyond the step. After a cut it goes to the step, 900, which still
  // pays at −2.57 (1000 × 0.9^−2.57 × 340 − 440,000 ≈ +5,733); after a raise it reverses the last move, and
  // goes half the way: 1000 − (1000 − 874) / 2 ≈ 937.
  it("a move that reverses the last price change goes half the way", () => {
    const pool: Pool = {
      mean: -3,
      variance: 0.01,
      spread: 0.04,
      competitor: { level: 0, slope: 0 },
      curvature: 0,
      curvatureVariance: 0,
      shift: 0,
      shiftVariance: 0,
      levels: [],
      competitorResponse: 0
    }
    const pools = { workspace: pool, hasEvidence: true, byTag: new Map(), reference: null }
    const policy = pricingPolicy({ rounding: "none" })
    const price = (history: ReadonlyArray<{ readonly price: number; readonly units: number }>) =>
      analyseItem(pricingInput({ cost: 560, unitsSold30d: 1000, priceHistory: history }), policy, pools).recommendation
        ?.recommendedPrice ?? null
    const afterCut = price([{ price: 1100, units: 751 }])
    const afterRaise = price([{ price: 900, units: 1372 }])
    assert.isNotNull(afterCut)
    assert.isNotNull(afterRaise)
    if (afterCut === null || afterRaise === null) return
    assert.isBelow(afterCut, 1000)
    // The step after a cut; half the way to the optimum after a raise.
    assert.deepStrictEqual([afterCut, afterRaise], [900, 937])
    assert.approximately(1000 - afterRaise, (1000 - 874) / 2, 2)
  })
})

describe("period levels from every item, moved or not (PeriodEffects)", () => {
  const period = 30 * 86_400_000
  const reference = Date.UTC(2026, 0, 1)

  // An item at 10.00 for two recorded periods (40 units, then 50), 30 units at 11.00 now; the pool's price part
  // −2 × ln(p / 10.00). Ages: the newest recorded period is 1, the one before 2, now 0. Values, ln(q + ½) less
  // the price part: now ln 30.5 + 2 ln 1.1 = 3.417727 + 0.190620 = 3.608347; age 1 ln 50.5 = 3.921973; age 2
  // ln 40.5 = 3.701302. Mean count (30 + 50 + 40) / 3 = 40: weight 1 / (1 / 40.5 + 0.0025) = 36.776390.
  it("reads each period of an item less the price's part", () => {
    const evidence = levelEvidence(
      [
        { price: 1000, units: 40, at: reference - period },
        { price: 1000, units: 50, at: reference }
      ],
      1100,
      30,
      reference,
      (logPrice) => -2 * (logPrice - Math.log(1000))
    )
    // Newest first, the current point last.
    assert.deepStrictEqual(evidence?.ages, [1, 2, 0])
    close(evidence?.values[0], 3.921973)
    close(evidence?.values[1], 3.701302)
    close(evidence?.values[2], 3.608347)
    close(evidence?.weight, 36.77639)
  })

  // Two items whose values are exactly item level + period level: A = 3 + (0, −0.2, 0.1) at ages 0, 1, 2 and
  // B = 2 + (0, −0.2) at ages 0, 1, each weighing 100. The fixed-effect fit recovers s1 = −0.2 and s2 = 0.1.
  // Precisions: age 0 200, age 1 200, age 2 100; a level's variance 1/p + 1/p0: age 1 0.005 + 0.005 = 0.01,
  // age 2 0.01 + 0.005 = 0.015. Shrunk toward 0 by the prior 0.09: age 1 × 0.09 / 0.1 = 0.9 → −0.18, variance
  // 0.009; age 2 × 0.09 / 0.105 = 0.857143 → 0.085714, variance 0.015 × 0.857143 = 0.012857.
  it("separates the items' levels from the periods' (two-way fixed effects)", () => {
    const levels = periodLevels([
      { ages: [0, 1, 2], values: [3, 2.8, 3.1], weight: 100 },
      { ages: [0, 1], values: [2, 1.8], weight: 100 }
    ])
    assert.deepStrictEqual(levels[0], { level: 0, variance: 0 })
    close(levels[1]?.level, -0.18)
    close(levels[1]?.variance, 0.009)
    close(levels[2]?.level, 0.085714)
    close(levels[2]?.variance, 0.012857)
  })

  // One past point at 10.00 (100 units) in a period whose level was −0.1 (demand 10 % lower than now, in logs),
  // 80 units at 11.00 now: the point is read as ln 100 + 0.1, and the slope is
  // (ln 80 − ln 100 − 0.1) / ln 1.1 = (−0.223144 − 0.1) / 0.095310 = −3.390441 (without the level: −2.341).
  it("reads a past point less its period's level before the price response", () => {
    const at = reference - period
    const fit = fitElasticity([{ price: 1000, units: 100, at }], 1100, 80, 0, null, (point) =>
      point.at === at ? -0.1 : 0
    )
    close(fit?.slope, -3.390441)
    assert.strictEqual(periodAge(at, reference), 2)
  })
})
