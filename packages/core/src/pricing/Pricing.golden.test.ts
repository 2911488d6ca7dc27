/** The pricing engine against the hand-computed golden cases (testing/PricingGolden.ts). */
import { assert, describe, it } from "@effect/vitest"
import { pricingInput } from "../testing/PricingFixtures.ts"
import { checkGoldenRecommendation, goldenCases, goldenPolicy } from "../testing/PricingGolden.ts"
import { analyseItem } from "./Pricing.ts"

describe("Pricing golden cases", () => {
  it("has at least 30 cases", () => {
    assert.isAtLeast(goldenCases.length, 30)
  })
  for (const c of goldenCases) {
    it(c.name, () => {
      const analysis = analyseItem(pricingInput(c.item), goldenPolicy(c))
      assert.deepStrictEqual(
        analysis.alerts.map((alert) => alert.kind),
        c.alerts ?? []
      )
      if (c.price === null) {
        assert.isNull(analysis.recommendation)
        return
      }
      assert.isNotNull(analysis.recommendation)
      if (analysis.recommendation === null) return
      assert.strictEqual(analysis.recommendation.recommendedPrice, c.price)
      checkGoldenRecommendation(c, analysis.recommendation)
    })
  }
})
