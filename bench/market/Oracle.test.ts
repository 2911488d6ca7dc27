import { assert, describe, it } from "@effect/vitest"
import { defaultPricingPolicy } from "@margin/core/pricing/PricingPolicy"
import { summarise } from "./ArmSummary.ts"
import { costAt, expectedProfit, makeMarket } from "./Market.ts"
import { allOn, defaultForms, formName, tidy } from "./MarketSwitches.ts"
import { optimalPrice, oraclePrice, restoresLimit } from "./Oracle.ts"
import { formPolicy, nothingArm, oracleArm } from "./Simulation.ts"

const shape = { seed: 7, items: 300, categories: 4, cycles: 6 }

describe("the oracle", () => {
  it("finds cost × e / (1 + e) in the tidy market", () => {
    const market = makeMarket({ ...shape, switches: tidy })
    for (const item of market.items) {
      const closedForm = (item.cost * item.elasticity) / (1 + item.elasticity)
      assert.closeTo(optimalPrice(market, item, 1) / closedForm, 1, 1e-6, item.sku)
    }
  })

  it("finds a price no nearby price beats, whatever the switches", () => {
    const market = makeMarket({ ...shape, switches: allOn, cycles: 12 })
    for (const item of market.items) {
      for (const period of [1, 5, 12]) {
        const best = optimalPrice(market, item, period)
        const profit = expectedProfit(market, item, best, period)
        assert.isAbove(best, costAt(market, item, period), item.sku)
        for (const factor of [0.9, 0.99, 0.999, 1.001, 1.01, 1.1]) {
          assert.isAtMost(expectedProfit(market, item, best * factor, period), profit * (1 + 1e-9), item.sku)
        }
      }
    }
  })

  it("moves toward the optimum only when the move truly pays, unless it restores a limit", () => {
    const market = makeMarket({ ...shape, switches: allOn, cycles: 12 })
    const policy = formPolicy(allOn, defaultPricingPolicy)
    for (const item of market.items) {
      const next = oraclePrice(market, item, item.startPrice, 3, policy)
      if (next === null || restoresLimit(market, item, item.startPrice, 3, policy)) continue
      assert.isAbove(expectedProfit(market, item, next, 3), expectedProfit(market, item, item.startPrice, 3), item.sku)
      const optimum = optimalPrice(market, item, 3)
      assert.strictEqual(Math.sign(next - item.startPrice), Math.sign(optimum - item.startPrice), item.sku)
    }
  })

  it("captures 100 % of itself and never harms outside restorations, in every form", () => {
    for (const switches of defaultForms) {
      const market = makeMarket({ ...shape, switches, cycles: switches.long ? 12 : 6 })
      const policy = formPolicy(switches, defaultPricingPolicy)
      const oracle = oracleArm(market, policy)
      const result = { market, policy, nothing: nothingArm(market, policy), arms: [{ name: "oracle", cycles: oracle }] }
      const summary = summarise(result, "oracle")
      const form = formName(switches)
      assert.strictEqual(summary.captured, 1, form)
      assert.isAbove(summary.adopted, 0, form)
      assert.strictEqual(summary.harmful, summary.harmfulRestorations, form)
      // Restorations in the tidy market only lift prices to the floor: they pay there.
      if (!switches.competitors) assert.strictEqual(summary.harmful, 0, form)
    }
  })
})
