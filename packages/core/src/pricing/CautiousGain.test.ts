/**
 * The decision rule under an uncertain demand curve (CautiousGain), against cases computed by hand.
 * Notation: x = ln(next / price); the pessimistic change of ln units is g(x) = e·x + c·x²/2 − |x|·√(a² + x²·b²),
 * a = e − low for a raise (high − e for a cut), b = 1.644854 × sd(c) / 2.
 */
import { assert, describe, it } from "@effect/vitest"
import { cautiousLogUnitsChange, cautiousOptimum, cautiousProfitChange, type DemandBelief } from "./CautiousGain.ts"

const close = (actual: number, expected: number, digits = 5) =>
  assert.approximately(actual, expected, 10 ** -digits, `${actual} is not ${expected}`)

const belief = (overrides: Partial<DemandBelief> = {}): DemandBelief => ({
  elasticity: -3,
  low: -3.4,
  high: -2.6,
  curvature: 0,
  curvatureSd: 0,
  ...overrides
})

describe("CautiousGain", () => {
  // Without doubt on the curvature the pessimistic change is the interval's end: a raise of 10 % (x = 0.0953102)
  // at low −3.4, −0.324055; a cut of 10 % (x = −0.1053605) at high −2.6, +0.273937.
  it("is the interval's pessimistic end when the curvature is known", () => {
    close(cautiousLogUnitsChange(Math.log(1.1), belief()), Math.log(1.1) * -3.4)
    close(cautiousLogUnitsChange(Math.log(0.9), belief()), Math.log(0.9) * -2.6)
    close(cautiousLogUnitsChange(Math.log(1.1), belief()), -0.324055)
  })

  // e −3 [−3.4, −2.6], c −9 with sd 4, a raise of 10 %: x = 0.0953102, a = 0.4, b = 1.644854 × 4 / 2 = 3.289707;
  // point change x·(−3 − 9x/2) = 0.0953102 × −3.428896 = −0.326809; doubt x·√(0.16 + 0.0090840 × 10.822173)
  // = 0.0953102 × 0.508242 = 0.048441; g = −0.375249. With 1,000 units at 10.00, cost 6.00, to 11.00:
  // 1000 × e^−0.375249 × 500 − 400,000 = −56,441 (−39,389 at the point, −38,395 at the interval's end alone).
  it("weighs the curvature's doubt by the square of the move", () => {
    const bending = belief({ curvature: -9, curvatureSd: 4 })
    close(cautiousLogUnitsChange(Math.log(1.1), bending), -0.375249)
    assert.strictEqual(Math.round(cautiousProfitChange(1000, 1000, 1100, 600, bending)), -56441)
    assert.strictEqual(Math.round(cautiousProfitChange(1000, 1000, 1100, 600, belief())), -38395)
    // A small move is judged on the elasticity: at 1 % the curvature's doubt adds 0.3 % to the doubt.
    const small = Math.log(1.01)
    const withCurve = cautiousLogUnitsChange(small, bending) - small * (-3 + (-9 * small) / 2)
    close(withCurve / (-0.4 * small), 1.00338, 4)
  })

  // Cost 6.00, price 10.00: P / (P − cost) = 2.5. e −2 [−2.2, −1.8]: low + 2.5 = 0.3 > 0, a raise; with no
  // curvature the optimum of the pessimistic end, 600 × 2.2 / 1.2 = 1100. e −3.2 [−3.6, −2.8]: high + 2.5 < 0, a
  // cut to 600 × 2.8 / 1.8 = 933.33. e −2.5 [−2.9, −2.1]: neither pays at its pessimistic end: the price stays.
  it("moves to the optimum of the pessimistic end, or nowhere", () => {
    close(cautiousOptimum(600, 1000, belief({ elasticity: -2, low: -2.2, high: -1.8 })), 1100, 4)
    close(cautiousOptimum(600, 1000, belief({ elasticity: -3.2, low: -3.6, high: -2.8 })), 933.33333, 4)
    assert.strictEqual(cautiousOptimum(600, 1000, belief({ elasticity: -2.5, low: -2.9, high: -2.1 })), 1000)
    // No cost, or a price at or below it: no profit to maximise.
    assert.strictEqual(cautiousOptimum(0, 1000, belief()), 1000)
    assert.strictEqual(cautiousOptimum(1000, 1000, belief()), 1000)
  })

  // e −2 [−2.2, −1.8], c −4 with sd 2, cost 6.00, price 10.00. The optimum is where the slope of ln(profit)
  // e + c·x − (a² + 2x²b²) / √(a² + x²b²) + p / (p − cost) is 0: at p = 1037.219 (x = 0.0365431, a = 0.2,
  // b = 1.644854): −2 − 0.146172 − 0.047226 / 0.208837 + 1037.219 / 437.219 = −2 − 0.146172 − 0.226139 +
  // 2.372311 = 0.000000. Without the curvature's doubt the same curve peaks at 1040.97: the doubt pulls toward P.
  it("sizes the move to the pessimistic profit's peak, between the price and the point's", () => {
    const bending = belief({ elasticity: -2, low: -2.2, high: -1.8, curvature: -4 })
    close(cautiousOptimum(600, 1000, { ...bending, curvatureSd: 2 }), 1037.219, 2)
    close(cautiousOptimum(600, 1000, bending), 1040.974, 2)
  })
})
