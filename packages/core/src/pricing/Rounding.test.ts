import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { RoundingMode } from "./PricingPolicy.ts"
import { gridStep, isOnGrid, roundWithin } from "./Rounding.ts"

const modes = RoundingMode.literals

describe("Rounding", () => {
  it("rounds to the nearest allowed price of each mode (2 decimals)", () => {
    const round = (x: number, mode: (typeof modes)[number]) => roundWithin(x, 0, 100_000, mode, 2)
    assert.deepStrictEqual(
      modes.map((mode) => round(1234.4, mode)),
      [1234, 1199, 1195, 1249, 1200]
    )
    assert.deepStrictEqual(
      modes.map((mode) => round(1280, mode)),
      [1280, 1299, 1295, 1299, 1300]
    )
  })
  it("acts on the last two digits of currencies without decimals, and on .xx0 with three", () => {
    assert.strictEqual(roundWithin(5384.6, 0, 100_000, "99", 0), 5399)
    assert.strictEqual(roundWithin(5384.6, 0, 100_000, "whole", 0), 5400)
    assert.strictEqual(roundWithin(10_769.2, 0, 100_000, "99", 3), 10_990)
    assert.strictEqual(roundWithin(10_600, 0, 100_000, "49_99", 3), 10_490)
  })
  it("never leaves the bounds: the other neighbour, else a whole minor unit", () => {
    assert.strictEqual(roundWithin(1210, 1205, 1400, "99", 2), 1299) // 1199 is below the bounds
    assert.strictEqual(roundWithin(1290, 1000, 1250, "99", 2), 1199) // 1299 is above them
    assert.strictEqual(roundWithin(1240.4, 1200, 1280, "99", 2), 1240) // no .99 price fits
  })
  it("breaks an exact tie upwards", () => {
    assert.strictEqual(roundWithin(1250, 0, 10_000, "whole", 2), 1300)
    assert.strictEqual(roundWithin(10.5, 0, 100, "none", 2), 11)
  })
  it("answers a price in the bounds, on the grid whenever a grid price fits", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 5_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(...modes),
        fc.constantFrom(0, 2, 3),
        (min, width, at, mode, exponent) => {
          const max = min + width
          const x = min + at * width
          const price = roundWithin(x, min, max, mode, exponent)
          assert.isTrue(price >= min && price <= max)
          const step = gridStep(mode, exponent)
          const gridPriceFits = Array.from({ length: step }, (_, i) => min + i).some(
            (p) => p <= max && isOnGrid(p, mode, exponent)
          )
          assert.strictEqual(isOnGrid(price, mode, exponent), gridPriceFits)
        }
      )
    )
  })
})
