import { assert, describe, it } from "@effect/vitest"
import { type ProfitCurveInput, profitCurve } from "./ProfitCurve.ts"

// Computed by hand: price 10.00, cost 6.00, 100 units a month, elasticity −2 in [−3, −1].
const input: ProfitCurveInput = {
  currentPrice: 1000,
  recommendedPrice: 900,
  cost: 600,
  unitsAtCurrent: 100,
  elasticity: -2,
  interval: [-3, -1],
  floor: 800,
  ceiling: 1200
}

const at = (curve: NonNullable<ReturnType<typeof profitCurve>>, price: number) => {
  const index = curve.prices.indexOf(price)
  assert.isAtLeast(index, 0, `${price} is drawn`)
  return { estimate: curve.estimate[index], low: curve.low[index], high: curve.high[index] }
}

describe("profitCurve", () => {
  it("is (p − cost) · q0 · (p / P)^e, the band from the interval's two ends", () => {
    const curve = profitCurve(input)
    assert.isNotNull(curve)
    if (curve === null) return
    // At today's price every elasticity gives the known profit: 4.00 × 100.
    assert.deepStrictEqual(at(curve, 1000), { estimate: 40_000, low: 40_000, high: 40_000 })
    // 3.00 × 100 / 0.9^e: e −2 → 37,037.04; −3 → 41,152.26; −1 → 33,333.33.
    assert.deepStrictEqual(at(curve, 900), { estimate: 37_037, low: 33_333, high: 41_152 })
    // 6.00 × 100 / 1.2²: 41,666.67.
    assert.strictEqual(at(curve, 1200).estimate, 41_667)
  })

  it("spans the marks and the limits with a tenth to spare, sampled in 60 steps", () => {
    const curve = profitCurve(input)
    assert.isNotNull(curve)
    if (curve === null) return
    // From 0.9 × the floor (720) to 1.1 × the ceiling (1,320), every 10.
    assert.strictEqual(curve.prices.length, 61)
    assert.strictEqual(curve.prices[0], 720)
    assert.strictEqual(curve.prices.at(-1), 1320)
    assert.deepStrictEqual([curve.current, curve.recommended, curve.floor, curve.ceiling], [1000, 900, 800, 1200])
  })

  it("leaves out a limit more than a third away, and always spans the two prices", () => {
    const curve = profitCurve({ ...input, floor: 500, ceiling: null })
    assert.isNotNull(curve)
    if (curve === null) return
    assert.strictEqual(curve.floor, null)
    assert.strictEqual(curve.ceiling, null)
    assert.strictEqual(curve.prices[0], 810)
    assert.strictEqual(curve.prices.at(-1), 1100)
    const far = profitCurve({ ...input, recommendedPrice: 5000, floor: null, ceiling: null })
    assert.strictEqual(far?.prices.at(-1), 5500)
  })

  it("draws nothing without a cost, without sales or without a price", () => {
    assert.isNull(profitCurve({ ...input, cost: null }))
    assert.isNull(profitCurve({ ...input, unitsAtCurrent: 0 }))
    assert.isNull(profitCurve({ ...input, currentPrice: 0 }))
  })
})
