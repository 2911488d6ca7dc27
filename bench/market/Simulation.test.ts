import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { openEngineShop } from "./EngineShop.ts"
import { expectedProfit, makeMarket } from "./Market.ts"
import { summarise } from "./MarketReport.ts"
import { optimalPrice, oraclePrice } from "./Oracle.ts"
import { policyFor, simulate } from "./Simulation.ts"
import { openUseCaseShop } from "./UseCaseShop.ts"

// Small on purpose: these are facts about the simulator, not the targets (which the bench prints).
const small = { seed: 7, items: 200, categories: 4, cycles: 2 }

describe("the simulated market", () => {
  it("draws every true elasticity below -1 and every starting margin within 10-60 %", () => {
    const market = makeMarket(small)
    for (const elasticity of market.categoryElasticities) assert.isTrue(elasticity >= -4 && elasticity <= -1.2)
    for (const item of market.items) {
      assert.isBelow(item.elasticity, -1)
      const margin = (item.startPrice - item.cost) / item.startPrice
      assert.isTrue(margin > 0.09 && margin < 0.61, `margin ${margin}`)
    }
    const withHistory = market.items.filter((item) => item.startHistory.length > 0).length
    assert.isTrue(withHistory > 80 && withHistory < 160, `${withHistory} of 200 items with a history`)
  })

  it("moves the oracle toward c × e / (1 + e) and never to a worse expected profit", () => {
    const market = makeMarket(small)
    const policy = policyFor("profit")
    for (const item of market.items) {
      const next = oraclePrice(item, item.startPrice, policy)
      if (next === null) continue
      const toward = Math.sign(optimalPrice(item) - item.startPrice) === Math.sign(next - item.startPrice)
      const restoresFloor = item.startPrice < item.cost / (1 - policy.minMargin)
      assert.isTrue(toward || restoresFloor, item.sku)
      assert.isAtLeast(expectedProfit(item, next), expectedProfit(item, item.startPrice))
    }
  })

  it.effect("gives the oracle at least the profit of doing nothing, every cycle", () =>
    Effect.gen(function* () {
      const result = yield* simulate(small, openEngineShop)
      const oracle = result.arms.find((arm) => arm.name === "oracle")
      assert.strictEqual(oracle?.cycles.length, 2)
      for (const cycle of oracle?.cycles ?? []) assert.isAtLeast(cycle.profit, result.nothing.profit)
      assert.strictEqual(summarise(result, "oracle").harmfulShare, 0)
    })
  )

  it.effect("gives the same figures for the same seed, and other figures for another", () =>
    Effect.gen(function* () {
      const first = yield* simulate(small, openEngineShop)
      const again = yield* simulate(small, openEngineShop)
      const other = yield* simulate({ ...small, seed: 8 }, openEngineShop)
      assert.deepStrictEqual(again.arms, first.arms)
      assert.deepStrictEqual(again.nothing, first.nothing)
      assert.notDeepEqual(other.nothing, first.nothing)
    })
  )

  it.effect("lives the same market through the use cases as through the pure engine", () =>
    Effect.gen(function* () {
      const shape = { ...small, items: 120 }
      const engine = yield* simulate(shape, openEngineShop)
      const useCases = yield* simulate(shape, openUseCaseShop)
      assert.deepStrictEqual(useCases.arms, engine.arms)
    })
  )
})
