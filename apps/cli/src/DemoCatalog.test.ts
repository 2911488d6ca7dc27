import { assert, describe, it } from "@effect/vitest"
import type { PricePoint } from "@margin/core/catalog/CatalogItem"
import { analyseCatalog } from "@margin/core/pricing/Pricing"
import { defaultPricingPolicy } from "@margin/core/pricing/PricingPolicy"
import { demoCatalog, demoCatalogHistory } from "./DemoCatalog.ts"

/**
 * The demo's items as the catalog holds them after importing the history, then today's catalog: a
 * price change records the outgoing price and its units (the repositories' rule).
 */
const importedDemo = () => {
  const versions = [...demoCatalogHistory(), demoCatalog()]
  const [oldest = [], ...later] = versions
  return oldest.map((first, index) => {
    let item = first
    const priceHistory: Array<PricePoint> = []
    for (const version of later) {
      const next = version[index] ?? first
      if (next.price !== item.price) priceHistory.push({ price: item.price, units: item.unitsSold30d })
      item = next
    }
    return {
      itemId: `item_${index}`,
      sku: item.sku,
      currency: item.currency,
      price: item.price,
      cost: item.cost,
      minPrice: item.minPrice,
      maxPrice: item.maxPrice,
      unitsSold30d: item.unitsSold30d,
      previousCost: item.cost,
      storePrice: null,
      priceHistory,
      tags: item.tags,
      competitorPrice: null
    }
  })
}

const restorations = new Set(["below_floor", "above_ceiling", "floor_exceeds_step", "ceiling_exceeds_step"])

describe("the demo catalog", () => {
  it("has a price history for three items in five, and every category has evidence", () => {
    const items = importedDemo()
    const withHistory = items.filter((item) => item.priceHistory.length === 2)
    // 120 items get two earlier prices; where rounding leaves a price unchanged, no observation.
    assert.isAtLeast(withHistory.length, 115)
    const categories = new Set(withHistory.map((item) => item.tags[0]))
    assert.strictEqual(categories.size, 5)
  })

  it("under the default policy, expects every recommendation outside guardrail restorations to pay", () => {
    const analysis = analyseCatalog(importedDemo(), defaultPricingPolicy)
    assert.isAbove(analysis.recommendations, 0)
    for (const item of analysis.items) {
      const recommendation = item.recommendation
      if (recommendation === null || restorations.has(recommendation.rule)) continue
      assert.isAbove(recommendation.expectedMonthlyImpact, 0, recommendation.explanation)
    }
  })
})
