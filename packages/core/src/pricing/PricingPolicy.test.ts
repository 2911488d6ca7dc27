import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { defaultPricingPolicy, PricingPolicy } from "./PricingPolicy.ts"

const valid = Schema.is(PricingPolicy)

describe("PricingPolicy", () => {
  it("the default is valid", () => {
    assert.isTrue(valid(defaultPricingPolicy))
    assert.deepStrictEqual(defaultPricingPolicy, {
      targetMargin: 0.35,
      minMargin: 0.15,
      maxChangePct: 0.1,
      rounding: "99",
      threshold: 0.01,
      objective: "profit",
      defaultElasticity: -1.5,
      maxPremiumOverCompetitor: 0.1,
      minExpectedGain: 0.01
    })
  })
  it("accepts every rounding mode", () => {
    for (const rounding of ["none", "99", "95", "49_99", "whole"]) {
      assert.isTrue(valid({ ...defaultPricingPolicy, rounding }), rounding)
    }
  })
  it("rejects out-of-range ratios and unknown rounding", () => {
    const bad = [
      { targetMargin: 1 },
      { targetMargin: -0.1 },
      { minMargin: 1 },
      { maxChangePct: 0 },
      { threshold: Number.NaN },
      { maxChangePct: Number.POSITIVE_INFINITY },
      { objective: "revenue" },
      { defaultElasticity: 0 },
      { defaultElasticity: 0.5 },
      { maxPremiumOverCompetitor: -0.01 },
      { minExpectedGain: -0.01 },
      { minExpectedGain: 1 },
      { rounding: "10" }
    ]
    for (const change of bad) assert.isFalse(valid({ ...defaultPricingPolicy, ...change }), JSON.stringify(change))
  })
  it("rejects a minimum margin above the target", () => {
    const result = Schema.decodeUnknownExit(PricingPolicy)({ ...defaultPricingPolicy, minMargin: 0.4 })
    assert.isTrue(result._tag === "Failure")
    assert.match(String(result), /minMargin must not be above targetMargin/)
  })
})
