import { assert, describe, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import { checkPolicy, policyFieldRules, policyFields } from "./PolicyCheck.ts"
import { defaultPricingPolicy, PricingPolicy } from "./PricingPolicy.ts"

const refusedFields = (candidate: Record<string, unknown>) => {
  const checked = checkPolicy({ ...defaultPricingPolicy, ...candidate })
  return Result.isFailure(checked) ? checked.failure.map((error) => error.field) : []
}

describe("checkPolicy", () => {
  it("accepts exactly what the PricingPolicy schema accepts", () => {
    const candidates: ReadonlyArray<Record<string, unknown>> = [
      {},
      { targetMargin: 0.99, minMargin: 0 },
      { maxPremiumOverCompetitor: null },
      { targetMargin: 1 },
      { minMargin: 0.5 },
      { maxChangePct: 0 },
      { rounding: "10" },
      { objective: "revenue" },
      { defaultElasticity: 0 },
      { defaultElasticity: -10.5 },
      { threshold: "0.01" },
      { maxPremiumOverCompetitor: -0.1 },
      { minExpectedGain: Number.NaN }
    ]
    for (const change of candidates) {
      const candidate = { ...defaultPricingPolicy, ...change }
      assert.strictEqual(
        Result.isSuccess(checkPolicy(candidate)),
        Schema.is(PricingPolicy)(candidate),
        JSON.stringify(change)
      )
    }
  })

  it("names every refused field at once, with its rule; the margins across fields last", () => {
    assert.deepStrictEqual(refusedFields({ targetMargin: 2, objective: "x", minExpectedGain: 1 }), [
      "targetMargin",
      "objective",
      "minExpectedGain"
    ])
    assert.deepStrictEqual(refusedFields({ minMargin: 0.5 }), ["minMargin"])
    const checked = checkPolicy({ ...defaultPricingPolicy, rounding: "7" })
    assert.deepStrictEqual(Result.isFailure(checked) ? checked.failure : [], [
      { field: "rounding", message: policyFieldRules.rounding }
    ])
    assert.strictEqual(policyFields.length, Object.keys(PricingPolicy.fields).length)
  })
})
