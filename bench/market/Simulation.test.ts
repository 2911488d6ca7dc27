import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { summarise } from "./ArmSummary.ts"
import { openEngineShop } from "./EngineShop.ts"
import { competitorAt, costAt, expectedUnits, inCatalog, makeMarket } from "./Market.ts"
import { allOn, tidy } from "./MarketSwitches.ts"
import { defaultArms, marketShape, simulate } from "./Simulation.ts"
import { openUseCaseShop } from "./UseCaseShop.ts"

// Small on purpose: these are facts about the simulator, not the targets (which the bench prints).
const small = { seed: 7, items: 200, categories: 4, cycles: 2, switches: tidy, arms: defaultArms }

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

  it("switches its conditions on without changing the tidy market's items", () => {
    const plain = makeMarket({ ...small, cycles: 12 })
    const market = makeMarket({ ...small, cycles: 12, switches: allOn })
    const arriving = market.items.filter((item) => item.arrival > 1)
    assert.isTrue(arriving.length > 5 && arriving.length < 40, `${arriving.length} arriving`)
    for (const item of arriving) {
      assert.isTrue(item.arrival >= 2 && item.arrival <= 7 && item.startHistory.length === 0 && item.startUnits === 0)
      assert.isFalse(inCatalog(item, item.arrival - 1))
    }
    const thin = market.items.filter((item) => item.baseDemand < 3).length
    assert.isTrue(thin > 15 && thin < 50, `${thin} low-volume items`)
    const withCompetitor = market.items.filter((item) => competitorAt(item, 1) !== null).length
    assert.isTrue(withCompetitor > 90 && withCompetitor < 150, `${withCompetitor} with a competitor`)
    assert.deepStrictEqual(new Set(market.items.map((item) => item.curve._tag)), new Set(["linear", "logit"]))
    const raised = market.items.filter((item) => costAt(market, item, 12) !== item.cost)
    assert.deepStrictEqual(new Set(raised.map((item) => item.category)).size, 2)
    for (const item of raised) {
      assert.strictEqual(costAt(market, item, 6), item.cost)
      assert.strictEqual(costAt(market, item, 7), Math.round(item.cost * 1.12))
    }
    // The same draws where a switch does not speak: costs, prices, elasticities.
    market.items.forEach((item, index) => {
      const before = plain.items[index]
      assert.deepStrictEqual(
        [item.cost, item.startPrice, item.elasticity],
        [before?.cost, before?.startPrice, before?.elasticity]
      )
    })
    // Shocks move a category's demand between periods, at the same price.
    const item = market.items[0]
    if (item === undefined) return assert.fail("no item")
    assert.notStrictEqual(
      expectedUnits(market, item, item.startPrice, 1),
      expectedUnits(market, item, item.startPrice, 2)
    )
  })

  it.effect("gives the oracle at least the profit of doing nothing every cycle, in the tidy market", () =>
    Effect.gen(function* () {
      const result = yield* simulate(small, openEngineShop)
      const oracle = result.arms.find((arm) => arm.name === "oracle")
      assert.strictEqual(oracle?.cycles.length, 2)
      for (const [index, cycle] of (oracle?.cycles ?? []).entries()) {
        assert.isAtLeast(cycle.profit, result.nothing[index]?.profit ?? 0)
      }
      assert.strictEqual(summarise(result, "oracle").harmfulShare, 0)
    })
  )

  it.effect("gives the same figures for the same seed, and other figures for another", () =>
    Effect.gen(function* () {
      const options = { ...small, switches: allOn }
      const first = yield* simulate(options, openEngineShop)
      const again = yield* simulate(options, openEngineShop)
      const other = yield* simulate({ ...options, seed: 8 }, openEngineShop)
      assert.strictEqual(first.nothing.length, 12)
      assert.deepStrictEqual(again.arms, first.arms)
      assert.deepStrictEqual(again.nothing, first.nothing)
      assert.notDeepEqual(other.nothing, first.nothing)
    })
  )

  it.effect("lives the same market through the use cases as through the pure engine, every switch on", () =>
    Effect.gen(function* () {
      // Seed 8 has items whose past holds the same price twice in a row: the catalog keeps one point.
      const shape = { ...small, seed: 8, items: 150, switches: allOn }
      const repeated = makeMarket(marketShape(shape)).items.filter((item) => {
        const prices = [...item.startHistory.map((point) => point.price), item.startPrice]
        return prices.some((price, index) => price === prices[index - 1])
      })
      assert.isAbove(repeated.length, 0)
      const engine = yield* simulate(shape, openEngineShop)
      const useCases = yield* simulate(shape, openUseCaseShop)
      assert.deepStrictEqual(useCases.arms, engine.arms)
      assert.isAbove(summarise(engine, "engine").adopted, 0)
    })
  )
})
