// The simulation: one form of the market lived through once per arm (doing nothing, the engine under
// each policy asked for, the oracle), cycle by cycle: an import (the period's costs, competitor
// prices, units sold and arriving items), a run, every recommendation adopted, a period of demand
// realised. Every figure is the true model's expectation, never a draw.
import { defaultPricingPolicy, type PricingPolicy } from "@margin/core/pricing/PricingPolicy"
import { Effect } from "effect"
import {
  competitorAt,
  expectedProfit,
  inCatalog,
  type Market,
  type MarketShape,
  makeMarket,
  realisedUnits,
  trueElasticity
} from "./Market.ts"
import type { MarketSwitches } from "./MarketSwitches.ts"
import { addMove, emptyTally, type JudgedMove, type MoveTally, sumTallies } from "./MoveTally.ts"
import { oraclePrice, restoresLimit } from "./Oracle.ts"
import type { Adoption, OpenShop } from "./Shop.ts"

/** The horizon of the `long` switch. */
export const longHorizon = 12
/** The competitor limit of the `competitors` form when the policy has none (as in issue 40's check). */
export const competitorLimit = 0.1

/** The engine under one policy; the simulation's first arm also sets the oracle's guardrails. */
export interface EngineArm {
  readonly name: string
  readonly policy: PricingPolicy
}

export const defaultArms: ReadonlyArray<EngineArm> = [{ name: "engine", policy: defaultPricingPolicy }]

/** What one arm did in one cycle: its profit, and its moves (all, per category, and those of items with a competitor). */
export interface ArmCycle extends Readonly<MoveTally> {
  /** Expected profit per 30 days at the prices in force during the cycle, minor units. */
  readonly profit: number
  readonly profitByCategory: ReadonlyArray<number>
  readonly byCategory: ReadonlyArray<Readonly<MoveTally>>
  /** The moves of items with a competitor price in the period. */
  readonly withCompetitor: Readonly<MoveTally>
  /** The harmful changes by their rule code. */
  readonly harmfulByRule: Readonly<Record<string, number>>
}

export interface ArmResult {
  readonly name: string
  readonly cycles: ReadonlyArray<ArmCycle>
}

export interface SimulationResult {
  readonly market: Market
  /** The oracle's policy (the first arm's, with the form's competitor limit). */
  readonly policy: PricingPolicy
  /** Doing nothing: the starting prices kept, per cycle (the periods differ when the market moves). */
  readonly nothing: ReadonlyArray<ArmCycle>
  /** The engine's arms, then the oracle (named `oracle`). */
  readonly arms: ReadonlyArray<ArmResult>
}

export interface SimulationOptions {
  readonly seed: number
  readonly items: number
  readonly categories: number
  /** The horizon without the `long` switch. */
  readonly cycles: number
  readonly switches: MarketSwitches
  readonly arms: ReadonlyArray<EngineArm>
}

/** The policy an arm runs in a form: with `competitors`, the competitor limit unless the policy sets one. */
export const formPolicy = (switches: MarketSwitches, policy: PricingPolicy): PricingPolicy =>
  switches.competitors && policy.maxPremiumOverCompetitor === null
    ? { ...policy, maxPremiumOverCompetitor: competitorLimit }
    : policy

/** The market a form's options describe. */
export const marketShape = (options: SimulationOptions): MarketShape => ({
  seed: options.seed,
  items: options.items,
  categories: options.categories,
  cycles: options.switches.long ? longHorizon : options.cycles,
  switches: options.switches
})

/** The cycle's figures for `prices`, after `adopted` moved some of them. */
const measure = (
  market: Market,
  cycle: number,
  policy: PricingPolicy,
  prices: ReadonlyArray<number>,
  adopted: ReadonlyArray<Adoption>
): ArmCycle => {
  const profitByCategory = new Array<number>(market.shape.categories).fill(0)
  let profit = 0
  for (const item of market.items) {
    if (!inCatalog(item, cycle)) continue
    const value = expectedProfit(market, item, prices[item.index] ?? item.startPrice, cycle)
    profit += value
    profitByCategory[item.category] = (profitByCategory[item.category] ?? 0) + value
  }
  const byCategory = Array.from({ length: market.shape.categories }, emptyTally)
  const withCompetitor = emptyTally()
  const harmfulByRule: Record<string, number> = {}
  for (const move of adopted) {
    const item = market.items[move.index]
    if (item === undefined) continue
    const judged: JudgedMove = {
      harms: expectedProfit(market, item, move.to, cycle) < expectedProfit(market, item, move.from, cycle),
      restores: restoresLimit(market, item, move.from, cycle, policy),
      cuts: move.to < move.from,
      truth: trueElasticity(item, move.from, cycle),
      elasticity: move.elasticity,
      interval: move.interval
    }
    if (judged.harms) harmfulByRule[move.rule] = (harmfulByRule[move.rule] ?? 0) + 1
    const category = byCategory[item.category]
    if (category !== undefined) addMove(category, judged)
    if (competitorAt(item, cycle) !== null) addMove(withCompetitor, judged)
  }
  return { ...sumTallies(byCategory), profit, profitByCategory, byCategory, withCompetitor, harmfulByRule }
}

/** The engine under one policy through a shop. */
const engineArm = (market: Market, openShop: OpenShop, policy: PricingPolicy) =>
  Effect.scoped(
    Effect.gen(function* () {
      const shop = yield* openShop(market, policy)
      const prices = market.items.map((item) => item.startPrice)
      let units: ReadonlyArray<number> = market.items.map((item) => item.startUnits)
      const results: Array<ArmCycle> = []
      for (let cycle = 1; cycle <= market.shape.cycles; cycle++) {
        yield* shop.importCatalog(cycle, units)
        const adopted = yield* shop.runAndAdopt
        for (const move of adopted) prices[move.index] = move.to
        results.push(measure(market, cycle, policy, prices, adopted))
        units = market.items.map((item) =>
          inCatalog(item, cycle) ? realisedUnits(market, item, cycle, prices[item.index] ?? item.startPrice) : 0
        )
      }
      return results
    })
  )

/** The oracle under the same guardrails. */
export const oracleArm = (market: Market, policy: PricingPolicy): Array<ArmCycle> => {
  const prices = market.items.map((item) => item.startPrice)
  const results: Array<ArmCycle> = []
  for (let cycle = 1; cycle <= market.shape.cycles; cycle++) {
    const adopted: Array<Adoption> = []
    for (const item of market.items) {
      if (!inCatalog(item, cycle)) continue
      const from = prices[item.index] ?? item.startPrice
      const to = oraclePrice(market, item, from, cycle, policy)
      if (to === null) continue
      prices[item.index] = to
      adopted.push({ index: item.index, from, to, rule: "oracle", elasticity: null, interval: null })
    }
    results.push(measure(market, cycle, policy, prices, adopted))
  }
  return results
}

/** Doing nothing: the starting prices kept. */
export const nothingArm = (market: Market, policy: PricingPolicy): Array<ArmCycle> => {
  const prices = market.items.map((item) => item.startPrice)
  return Array.from({ length: market.shape.cycles }, (_, offset) => measure(market, offset + 1, policy, prices, []))
}

export const simulate = (options: SimulationOptions, openShop: OpenShop) =>
  Effect.gen(function* () {
    const market = makeMarket(marketShape(options))
    const policies = options.arms.map((arm) => ({ name: arm.name, policy: formPolicy(options.switches, arm.policy) }))
    const policy = policies[0]?.policy ?? formPolicy(options.switches, defaultPricingPolicy)
    const arms: Array<ArmResult> = []
    for (const arm of policies) arms.push({ name: arm.name, cycles: yield* engineArm(market, openShop, arm.policy) })
    arms.push({ name: "oracle", cycles: oracleArm(market, policy) })
    return { market, policy, nothing: nothingArm(market, policy), arms } satisfies SimulationResult
  })
