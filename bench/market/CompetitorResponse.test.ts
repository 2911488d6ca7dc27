import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { competitorElasticity, competitorFactor, undercutGain } from "./CompetitorResponse.ts"

describe("CompetitorResponse", () => {
  it("is 1 at parity, up to 1 + the undercut gain below, and falls off above", () => {
    assert.closeTo(competitorFactor(1), 1, 1e-12)
    assert.isBelow(competitorFactor(0.2), 1 + undercutGain)
    assert.isAbove(competitorFactor(0.2), 1.24)
    assert.isBelow(competitorFactor(1.1), 0.87)
    assert.isBelow(competitorFactor(1.5), 0.3)
    assert.isBelow(competitorFactor(500), 1e-200)
  })

  it("gives its elasticity d ln factor / d ln price, always negative, steeper above the competitor", () =>
    fc.assert(
      fc.property(fc.double({ min: 0.5, max: 2, noNaN: true }), (ratio) => {
        const h = 1e-6
        const numeric =
          (Math.log(competitorFactor(ratio * (1 + h))) - Math.log(competitorFactor(ratio * (1 - h)))) / (2 * h)
        assert.closeTo(competitorElasticity(ratio), numeric, 1e-5)
        assert.isBelow(competitorElasticity(ratio), 0)
        assert.isBelow(competitorElasticity(ratio * 1.05), competitorElasticity(ratio))
      })
    ))
})
