import { assert, describe, it } from "@effect/vitest"
import { CatalogItemId } from "../kernel/Ids.ts"
import { JPY, pricingInput, pricingPolicy } from "../testing/PricingFixtures.ts"
import { analyseCatalog, analyseItem, type PricingInput } from "./Pricing.ts"

/** The sentences below are the `target_margin` objective's (the profit objective's: Pricing.profit.test.ts). */
const targetMargin = (overrides: Parameters<typeof pricingPolicy>[0] = {}) =>
  pricingPolicy({ objective: "target_margin", ...overrides })

const explanation = (overrides: Partial<PricingInput>, policy = targetMargin()) =>
  analyseItem(pricingInput(overrides), policy).recommendation?.explanation

const objective = " Objective: the target margin, not the highest expected profit."
const noHistory = `at an assumed elasticity of 0 (no price history).${objective}`

describe("analyseItem", () => {
  it("computes margin and markup", () => {
    const analysis = analyseItem(pricingInput({ cost: 700 }), pricingPolicy())
    assert.strictEqual(analysis.currentMargin, 0.3)
    assert.strictEqual(analysis.markup, 300 / 700)
    const noCost = analyseItem(pricingInput({ cost: null }), pricingPolicy())
    assert.deepStrictEqual([noCost.currentMargin, noCost.markup], [null, null])
    const free = analyseItem(pricingInput({ cost: 0 }), pricingPolicy())
    assert.deepStrictEqual([free.currentMargin, free.markup], [1, null])
    const unpriced = analyseItem(pricingInput({ price: 0, cost: 100 }), pricingPolicy())
    assert.deepStrictEqual([unpriced.currentMargin, unpriced.markup], [null, -1])
  })

  it("keeps the item's id type and echoes what it priced", () => {
    const id = CatalogItemId.make("itm_42")
    const analysis = analyseItem({ ...pricingInput({ cost: 700, currency: JPY }), itemId: id }, pricingPolicy())
    const same: CatalogItemId = analysis.itemId
    assert.strictEqual(same, id)
    assert.strictEqual(analysis.sku, "SKU-1")
    assert.strictEqual(analysis.recommendation?.currency, JPY)
    assert.strictEqual(analysis.recommendation?.currentPrice, 1000)
    assert.strictEqual(analysis.recommendation?.currentMargin, 0.3)
  })

  it("explains a target-margin move", () => {
    assert.strictEqual(
      explanation({ cost: 700 }),
      `Margin 30.0% is below the 35.0% target: raise the price from 10.00 USD to 10.99 USD (projected margin 36.3%); expected monthly profit change +99.00 USD ${noHistory}`
    )
  })

  it("names the limit that held a move", () => {
    assert.strictEqual(
      explanation({ price: 1300, minPrice: 1200 }, targetMargin({ rounding: "none" })),
      `Margin 50.0% is above the 35.0% target: lower the price from 13.00 USD to 12.00 USD, held at the floor of 12.00 USD set by the minimum price (projected margin 45.8%); expected monthly profit change -100.00 USD ${noHistory}`
    )
    assert.strictEqual(
      explanation({ cost: 700, maxPrice: 1050 }, targetMargin({ rounding: "none" })),
      `Margin 30.0% is below the 35.0% target: raise the price from 10.00 USD to 10.50 USD, capped at the maximum price of 10.50 USD (projected margin 33.3%); expected monthly profit change +50.00 USD ${noHistory}`
    )
  })

  it("says when the floor or the ceiling wins over the step", () => {
    assert.strictEqual(
      explanation({ cost: 1000 }),
      `The floor of 11.77 USD (the 15.0% minimum margin) is more than the 10.0% step away and wins over it: raise the price from 10.00 USD to 11.99 USD (projected margin 16.6%); expected monthly profit change +199.00 USD ${noHistory}`
    )
    assert.strictEqual(
      explanation({ price: 2000, cost: 700, maxPrice: 1500 }, targetMargin({ rounding: "none" })),
      `The maximum price of 15.00 USD is more than the 10.0% step away and wins over it: lower the price from 20.00 USD to 15.00 USD (projected margin 53.3%); expected monthly profit change -500.00 USD ${noHistory}`
    )
  })

  it("says when a move needs more than one step, and the elasticity it used", () => {
    const history = [
      { price: 1000, units: 100 },
      { price: 1100, units: 80 }
    ]
    assert.strictEqual(
      explanation({ price: 2000, cost: 700, unitsSold30d: 10, priceHistory: history }),
      `Reaching 10.77 USD (the 35.0% target margin) takes more than the 10.0% step, so this run moves part of the way: lower the price from 20.00 USD to 18.99 USD (projected margin 63.1%); expected monthly profit change +5.29 USD at an arc elasticity of -2.33 from 2 price points.${objective}`
    )
  })

  it("speaks of revenue when the cost is unknown", () => {
    assert.strictEqual(
      explanation({ cost: null, minPrice: 1050 }),
      `The price is below the floor of 10.50 USD (the minimum price): raise the price from 10.00 USD to 10.99 USD (margin unknown without a cost); expected monthly revenue change +99.00 USD ${noHistory}`
    )
  })

  it("words and grades each alert", () => {
    const alerts = (overrides: Partial<PricingInput>) =>
      analyseItem(pricingInput(overrides), pricingPolicy()).alerts.map((a) => [a.kind, a.severity, a.message])
    assert.deepStrictEqual(alerts({ cost: 1200 }), [
      [
        "negative_margin",
        "critical",
        "Price 10.00 USD is below cost 12.00 USD (margin -20.0%): every sale loses money."
      ],
      ["below_floor", "warning", "Price 10.00 USD is below the floor of 14.12 USD (the 15.0% minimum margin)."]
    ])
    assert.deepStrictEqual(alerts({ cost: null, storePrice: 1050 }), [
      [
        "missing_cost",
        "warning",
        "No cost is recorded: margins cannot be computed and only the min and max prices apply."
      ],
      ["price_drift", "warning", "The store sells at 10.50 USD but the catalog price is 10.00 USD."]
    ])
    assert.deepStrictEqual(alerts({ previousCost: 600 }), [
      ["cost_changed", "info", "Cost changed from 6.00 USD to 6.50 USD (+8.3%) since the previous run."]
    ])
    assert.deepStrictEqual(alerts({ cost: 900, price: 1100, maxPrice: 1000 }), [
      [
        "floor_above_ceiling",
        "warning",
        "The floor of 10.59 USD (the 15.0% minimum margin) is above the maximum price of 10.00 USD: no price satisfies both, so none is recommended."
      ]
    ])
  })

  it("gives the same answer every time", () => {
    const input = pricingInput({
      cost: 900,
      priceHistory: [
        { price: 900, units: 12 },
        { price: 950, units: 10 },
        { price: 1000, units: 9 }
      ]
    })
    assert.deepStrictEqual(analyseItem(input, pricingPolicy()), analyseItem(input, pricingPolicy()))
  })
})

describe("analyseCatalog", () => {
  const catalog = [
    pricingInput({ itemId: "c", sku: "B", cost: 700 }),
    pricingInput({ itemId: "b", sku: "A", cost: null }),
    pricingInput({ itemId: "a", sku: "B", cost: 1200 }),
    pricingInput({ itemId: "d", sku: "a" })
  ]

  it("orders items by sku, then id, by code unit", () => {
    const analysis = analyseCatalog(catalog, pricingPolicy())
    assert.deepStrictEqual(
      analysis.items.map((item) => `${item.sku}/${item.itemId}`),
      ["A/b", "B/a", "B/c", "a/d"]
    )
  })

  it("counts items, recommendations and alerts", () => {
    const analysis = analyseCatalog(catalog, pricingPolicy())
    assert.deepStrictEqual([analysis.itemsAnalysed, analysis.recommendations, analysis.alerts], [4, 2, 3])
  })

  it("leaves its input as it was", () => {
    const before = catalog.map((item) => item.itemId)
    analyseCatalog(catalog, pricingPolicy())
    assert.deepStrictEqual(
      catalog.map((item) => item.itemId),
      before
    )
  })

  it("analyses an empty catalog", () => {
    assert.deepStrictEqual(analyseCatalog([], pricingPolicy()), {
      items: [],
      itemsAnalysed: 0,
      recommendations: 0,
      alerts: 0
    })
  })
})
