import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import type { PricePoint } from "./Elasticity.ts"
import { fitElasticity } from "./ElasticityFit.ts"
import { elasticityPools, estimateWithPools, poolOf, priorPools } from "./ElasticityPools.ts"

const point = fc.record({ price: fc.integer({ min: 100, max: 10_000 }), units: fc.integer({ min: 1, max: 5_000 }) })
const item = fc.record({
  tags: fc.subarray(["a", "b"]),
  price: fc.integer({ min: 100, max: 10_000 }),
  unitsSold30d: fc.integer({ min: 0, max: 5_000 }),
  priceHistory: fc.array(point, { maxLength: 5 }),
  competitorPrice: fc.constant(null)
})
/** Items with competitor prices, now and in their history: what the period effects and the competitor terms read. */
const competing = fc.record({
  tags: fc.subarray(["a", "b"]),
  price: fc.integer({ min: 100, max: 10_000 }),
  unitsSold30d: fc.integer({ min: 0, max: 5_000 }),
  priceHistory: fc.array(
    fc.record({
      price: fc.integer({ min: 100, max: 10_000 }),
      units: fc.integer({ min: 1, max: 5_000 }),
      competitorPrice: fc.integer({ min: 100, max: 10_000 })
    }),
    { maxLength: 5 }
  ),
  competitorPrice: fc.option(fc.integer({ min: 100, max: 10_000 }), { nil: null })
})
const catalog = fc.array(fc.oneof(item, competing), { maxLength: 12 })
const width = (estimate: { readonly low: number; readonly high: number }) => estimate.high - estimate.low

const unclamped = (estimate: { readonly elasticity: number }) => estimate.elasticity < 0 && estimate.elasticity > -10

// The interval is rounded outwards to 0.01 at each end: widths compare up to that rounding.
const rounding = 0.02 + 1e-9

describe("elasticity pooling", () => {
  it("more evidence never widens the fit: an older observation on the item's fitted curve", () => {
    fc.assert(
      fc.property(item, point, (subject, extra) => {
        const fit = fitElasticity(subject.priceHistory, subject.price, subject.unitsSold30d)
        if (fit === null) return
        // The units the fitted line predicts at the extra price (not rounded): the fit itself stays the same.
        // Added as the oldest point, it ages none of the others (a newer one would: evidence fades with age).
        const units = Math.exp(fit.meanLogUnits + fit.slope * (Math.log(extra.price) - fit.meanLogPrice))
        const onCurve: PricePoint = { price: extra.price, units }
        const more = fitElasticity([onCurve, ...subject.priceHistory], subject.price, subject.unitsSold30d)
        if (more === null) return
        assert.isAtMost(more.variance, fit.variance * (1 + 1e-9) + 1e-12)
        assert.approximately(more.slope, fit.slope, 1e-6 * Math.max(1, Math.abs(fit.slope)))
      }),
      { numRuns: 500 }
    )
  })

  // The pool describes an item where its prices have been (its anchor); carried from there to the price now along
  // an uncertain curvature, its variance grows by carried² × the curvature's variance: the interval the pool
  // alone gives there is wider by √(1 + carried² × curvatureVariance / (variance + spread)).
  it("an item's own evidence never widens the interval its pool alone gives at the item's price", () => {
    fc.assert(
      fc.property(catalog, item, (others, subject) => {
        const pools = elasticityPools(others, -1.5)
        const fit = fitElasticity(subject.priceHistory, subject.price, subject.unitsSold30d)
        const alone = estimateWithPools(null, subject.tags, pools, subject.price)
        const withFit = estimateWithPools(fit, subject.tags, pools, subject.price)
        const { pool } = poolOf(subject.tags, pools)
        const carried = fit === null ? 0 : Math.log(subject.price) - fit.anchorLogPrice
        const carriedWidth =
          width(alone) * Math.sqrt(1 + (carried * carried * pool.curvatureVariance) / (pool.variance + pool.spread))
        if (unclamped(alone) && unclamped(withFit)) assert.isAtMost(width(withFit), carriedWidth + 2 * rounding)
        assert.isAtMost(withFit.low, withFit.elasticity)
        assert.isAtLeast(withFit.high, withFit.elasticity)
      }),
      { numRuns: 500 }
    )
  })

  it("pools do not depend on the order of the items", () => {
    fc.assert(
      fc.property(catalog, (items) => {
        const forward = elasticityPools(items, -2)
        const backward = elasticityPools(items.toReversed(), -2)
        assert.deepStrictEqual(forward, backward)
      }),
      { numRuns: 300 }
    )
  })

  it("without any history the workspace's pool is the policy's prior, and says so", () => {
    const estimate = estimateWithPools(null, ["a"], priorPools(-1.5), 1000)
    // sd 0.5 (prior spread 0.25), half-width 1.645 × 1.2 (the calibration) × 0.5 = 0.9869: [−2.4869, −0.5131].
    assert.deepStrictEqual(estimate, {
      elasticity: -1.5,
      low: -2.49,
      high: -0.51,
      source: "prior",
      sampleSize: 0,
      method: null,
      poolTag: null,
      curvature: 0,
      curvatureSd: 0,
      predictionMiss: null
    })
    assert.deepStrictEqual(
      elasticityPools([{ tags: ["a"], price: 1000, unitsSold30d: 5, priceHistory: [], competitorPrice: null }], -1.5),
      {
        ...priorPools(-1.5)
      }
    )
  })
})
