import { assert, describe, it } from "@effect/vitest"
import { defaultPricingPolicy } from "@margin/core/pricing/PricingPolicy"
import { parseMarketOptions, policyWith } from "./MarketOptions.ts"
import { allOn, defaultForms, formName, parseForm, tidy } from "./MarketSwitches.ts"

describe("the bench's flags", () => {
  it("names and reads the forms: tidy, each switch, combinations, all", () => {
    assert.deepStrictEqual(defaultForms.map(formName), [
      "tidy",
      "curves",
      "shocks",
      "costs",
      "competitors",
      "sparse",
      "long",
      "all"
    ])
    assert.deepStrictEqual(parseForm("tidy"), tidy)
    assert.deepStrictEqual(parseForm("all"), allOn)
    assert.deepStrictEqual(parseForm("curves+shocks"), { ...tidy, curves: true, shocks: true })
    assert.strictEqual(formName({ ...tidy, curves: true, shocks: true }), "curves+shocks")
    assert.include(String(parseForm("curves+weather")), 'unknown switch "weather"')
  })

  it("sets policy fields by name, decoded by the policy's schema", () => {
    assert.deepStrictEqual(policyWith(defaultPricingPolicy, "threshold=0.02,objective=target_margin"), {
      ...defaultPricingPolicy,
      threshold: 0.02,
      objective: "target_margin"
    })
    assert.deepStrictEqual(policyWith(defaultPricingPolicy, 'maxPremiumOverCompetitor=0.05,rounding="none"'), {
      ...defaultPricingPolicy,
      maxPremiumOverCompetitor: 0.05,
      rounding: "none"
    })
    assert.include(String(policyWith(defaultPricingPolicy, "minMarginn=0.2")), "is not field=value")
    assert.include(String(policyWith(defaultPricingPolicy, "threshold=2")), "not a valid policy")
    assert.include(String(policyWith(defaultPricingPolicy, "objective=volume")), "not a valid policy")
  })

  it("runs every form over seeds 1-3 by default, and one form's detail when asked for one form and seed", () => {
    const defaults = parseMarketOptions([])
    if (defaults === null || typeof defaults === "string") return assert.fail(String(defaults))
    assert.deepStrictEqual(defaults.forms, defaultForms)
    assert.deepStrictEqual(defaults.seeds, [1, 2, 3])
    assert.isFalse(defaults.detail)
    assert.deepStrictEqual(
      defaults.arms.map((arm) => arm.name),
      ["engine"]
    )
    const one = parseMarketOptions(["--switches", "all", "--seeds", "4", "--ab", "threshold=0.03", "--items", "500"])
    if (one === null || typeof one === "string") return assert.fail(String(one))
    assert.deepStrictEqual(one.forms, [allOn])
    assert.deepStrictEqual([one.seeds, one.items, one.detail], [[4], 500, true])
    assert.strictEqual(one.arms[1]?.policy.threshold, 0.03)
    assert.include(String(parseMarketOptions(["--seeds", "1,x"])), "--seeds")
    assert.include(String(parseMarketOptions(["--switches", "tidy,nope"])), "--switches")
    assert.include(String(parseMarketOptions(["--items", "0"])), "--items")
    assert.isNull(parseMarketOptions(["--help"]))
  })
})
