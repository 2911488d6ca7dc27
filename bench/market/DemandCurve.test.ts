import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { curveDemand, curveElasticity, type DemandCurve } from "./DemandCurve.ts"

const curves = (elasticity: number, share: number): ReadonlyArray<DemandCurve> => [
  { _tag: "constant", elasticity },
  { _tag: "linear", elasticity },
  { _tag: "logit", elasticity, share }
]

/** d ln λ / d ln x by central differences. */
const numericElasticity = (curve: DemandCurve, x: number): number => {
  const h = 1e-5
  return (Math.log(curveDemand(curve, x * (1 + h))) - Math.log(curveDemand(curve, x * (1 - h)))) / (2 * h)
}

const elasticity = fc.double({ min: -4.5, max: -1.05, noNaN: true })
const share = fc.double({ min: 0.2, max: 0.7, noNaN: true })

describe("DemandCurve", () => {
  it("sells the starting demand at the starting price, with the drawn elasticity there", () =>
    fc.assert(
      fc.property(elasticity, share, (e, q) => {
        for (const curve of curves(e, q)) {
          assert.closeTo(curveDemand(curve, 1), 1, 1e-12)
          assert.closeTo(curveElasticity(curve, 1), e, 1e-9)
        }
      })
    ))

  it("gives the local elasticity d ln λ / d ln p of its demand", () =>
    fc.assert(
      fc.property(elasticity, share, fc.double({ min: 0.7, max: 1.15, noNaN: true }), (e, q, x) => {
        for (const curve of curves(e, q)) {
          if (curveDemand(curve, x * 1.001) <= 0) continue
          assert.closeTo(curveElasticity(curve, x), numericElasticity(curve, x), 1e-4)
        }
      })
    ))

  it("bends: linear and logit demand are flatter below the starting price and steeper above", () => {
    for (const curve of curves(-2, 0.5).slice(1)) {
      assert.isAbove(curveElasticity(curve, 0.9), -2, curve._tag)
      assert.isBelow(curveElasticity(curve, 1.1), -2, curve._tag)
    }
    assert.strictEqual(curveElasticity({ _tag: "constant", elasticity: -2 }, 1.3), -2)
  })

  it("stops a linear demand at x = 1 − 1/e, and never sells a negative quantity", () => {
    const curve: DemandCurve = { _tag: "linear", elasticity: -2 }
    assert.closeTo(curveDemand(curve, 1.5), 0, 1e-12)
    assert.strictEqual(curveDemand(curve, 2), 0)
    assert.strictEqual(curveElasticity(curve, 2), Number.NEGATIVE_INFINITY)
    assert.closeTo(curveDemand(curve, 0.75), 1.5, 1e-12)
  })

  it("has a logit's demand fall as its share of buyers does: 1 / share at most", () => {
    const curve: DemandCurve = { _tag: "logit", elasticity: -2, share: 0.4 }
    assert.isBelow(curveDemand(curve, 0.01), 1 / 0.4)
    assert.isAbove(curveDemand(curve, 0.01), 2.3)
    assert.isBelow(curveDemand(curve, 3), 0.01)
  })
})
