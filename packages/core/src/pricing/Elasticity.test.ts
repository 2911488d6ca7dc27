import { assert, describe, it } from "@effect/vitest"
import { estimateElasticity, projectedUnits } from "./Elasticity.ts"

/** The estimate for observations written as [price, units] pairs, as [elasticity, source, sample size]. */
const estimate = (...points: ReadonlyArray<readonly [number, number]>) => {
  const found = estimateElasticity(points.map(([price, units]) => ({ price, units })))
  return [found.elasticity, found.method, found.sampleSize]
}

describe("estimateElasticity", () => {
  it("assumes zero without history", () => {
    assert.deepStrictEqual(estimate(), [0, "assumed_zero", 0])
  })
  it("uses the arc formula for two points: (-20 / 90) / (100 / 1050)", () => {
    assert.deepStrictEqual(estimate([1000, 100], [1100, 80]), [-2.33, "arc", 2])
  })
  it("uses the log-log slope for three or more", () => {
    // units = 1e8 / price^2 exactly: the slope is -2.
    const points = [1000, 1250, 2000, 2500].map((price) => [price, 1e8 / price ** 2] as const)
    assert.deepStrictEqual(estimate(...points), [-2, "log_log", 4])
  })
  it("ignores points without a price or units, and counts only the usable ones", () => {
    assert.deepStrictEqual(estimate([0, 10], [1000, 100], [1200, 0], [1100, 80]), [-2.33, "arc", 2])
  })
  it("caps a steep estimate at -10", () => {
    assert.deepStrictEqual(estimate([1000, 100], [1020, 10]), [-10, "arc", 2])
  })
  it("falls back to zero when the prices barely differ", () => {
    assert.deepStrictEqual(estimate([1000, 100], [1009, 50], [1005, 70]), [0, "assumed_zero", 3])
  })
  it("falls back to zero for one point, one distinct price, or a demand curve that does not fall", () => {
    assert.deepStrictEqual(estimate([1000, 5]), [0, "assumed_zero", 1])
    assert.deepStrictEqual(estimate([1000, 5], [1000, 7], [1000, 9]), [0, "assumed_zero", 3])
    assert.deepStrictEqual(estimate([1000, 80], [1100, 100]), [0, "assumed_zero", 2])
  })
})

describe("projectedUnits", () => {
  it("keeps units with elasticity zero and scales them by the price ratio otherwise", () => {
    assert.strictEqual(projectedUnits(100, 1000, 1100, 0), 100)
    assert.closeTo(projectedUnits(100, 1000, 1100, -2), 100 / 1.21, 1e-9)
  })
  it("keeps units when either price is zero", () => {
    assert.strictEqual(projectedUnits(100, 0, 1100, -2), 100)
    assert.strictEqual(projectedUnits(100, 1000, 0, -2), 100)
  })
})
