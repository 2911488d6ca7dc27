// The simulation: the same market lived through once per arm (doing nothing, each objective of the
// engine, the oracle), cycle by cycle: a run, every recommendation adopted, a period of demand
// realised and recorded. Every figure is the true model's expectation, never a draw.
import { defaultPricingPolicy, type PricingPolicy } from "@margin/core/PricingPolicy"
import { Effect } from "effect"
import { expectedProfit, type Market, type MarketShape, makeMarket, realisedUnits } from "./Market.ts"
import { oraclePrice } from "./Oracle.ts"
import type { Adoption, OpenShop } from "./Shop.ts"

export const objectives = ["profit", "target_margin"] as const
export type Objective = (typeof objectives)[number]

/** The default policy with `objective` set. */
export const policyFor = (objective: Objective): PricingPolicy => ({ ...defaultPricingPolicy, objective })

/** What one arm did in one cycle. */
export interface ArmCycle {
  /** Expected profit per 30 days at the prices in force during the cycle, minor units. */
  readonly profit: number
  readonly profitByCategory: ReadonlyArray<number>
  /** Price changes adopted at the cycle's start. */
  readonly adopted: number
  /** Adopted changes whose true expected profit change was negative. */
  readonly harmful: number
  /** Adopted changes that cut the price. */
  readonly cuts: number
  /** The harmful changes by their rule code. */
  readonly harmfulByRule: Readonly<Record<string, number>>
  /** Over the adopted changes priced with an estimate: the mean of (estimate − truth), and of its absolute value. */
  readonly estimateBias: number
  readonly estimateError: number
  /** The share of those whose interval holds the true elasticity. */
  readonly intervalCoverage: number
}

export type ArmName = Objective | "oracle"

export interface SimulationResult {
  readonly market: Market
  readonly policy: PricingPolicy
  /** Doing nothing: the starting prices kept, every cycle alike. */
  readonly nothing: ArmCycle
  readonly arms: ReadonlyArray<{ readonly name: ArmName; readonly cycles: ReadonlyArray<ArmCycle> }>
}

const zeros = (market: Market) => new Array<number>(market.shape.categories).fill(0)

/** The cycle's figures for `prices`, after `adopted` moved some of them. */
const measure = (market: Market, prices: ReadonlyArray<number>, adopted: ReadonlyArray<Adoption>): ArmCycle => {
  const profitByCategory = zeros(market)
  let profit = 0
  for (const item of market.items) {
    const value = expectedProfit(item, prices[item.index] ?? item.startPrice)
    profit += value
    profitByCategory[item.category] = (profitByCategory[item.category] ?? 0) + value
  }
  let harmful = 0
  let cuts = 0
  let estimated = 0
  let bias = 0
  let error = 0
  let covered = 0
  const harmfulByRule: Record<string, number> = {}
  for (const move of adopted) {
    const item = market.items[move.index]
    if (item === undefined) continue
    if (expectedProfit(item, move.to) < expectedProfit(item, move.from)) {
      harmful++
      harmfulByRule[move.rule] = (harmfulByRule[move.rule] ?? 0) + 1
    }
    if (move.to < move.from) cuts++
    if (move.elasticity !== null) {
      estimated++
      bias += move.elasticity - item.elasticity
      error += Math.abs(move.elasticity - item.elasticity)
      if (move.interval !== null && item.elasticity >= move.interval[0] && item.elasticity <= move.interval[1])
        covered++
    }
  }
  const mean = (total: number) => (estimated === 0 ? 0 : total / estimated)
  return {
    profit,
    profitByCategory,
    adopted: adopted.length,
    harmful,
    cuts,
    harmfulByRule,
    estimateBias: mean(bias),
    estimateError: mean(error),
    intervalCoverage: mean(covered)
  }
}

/** One objective of the engine through a shop, for `cycles` cycles. */
const engineArm = (market: Market, openShop: OpenShop, objective: Objective, cycles: number) =>
  Effect.scoped(
    Effect.gen(function* () {
      const shop = yield* openShop(market, policyFor(objective))
      const prices = market.items.map((item) => item.startPrice)
      const results: Array<ArmCycle> = []
      for (let cycle = 1; cycle <= cycles; cycle++) {
        const adopted = yield* shop.runAndAdopt
        for (const move of adopted) prices[move.index] = move.to
        results.push(measure(market, prices, adopted))
        yield* shop.recordSales(
          market.items.map((item) => realisedUnits(market, item, cycle, prices[item.index] ?? item.startPrice))
        )
      }
      return results
    })
  )

/** The oracle under the same guardrails, for `cycles` cycles. */
const oracleArm = (market: Market, policy: PricingPolicy, cycles: number): Array<ArmCycle> => {
  const prices = market.items.map((item) => item.startPrice)
  const results: Array<ArmCycle> = []
  for (let cycle = 1; cycle <= cycles; cycle++) {
    const adopted: Array<Adoption> = []
    for (const item of market.items) {
      const from = prices[item.index] ?? item.startPrice
      const to = oraclePrice(item, from, policy)
      if (to === null) continue
      prices[item.index] = to
      adopted.push({ index: item.index, from, to, rule: "oracle", elasticity: null, interval: null })
    }
    results.push(measure(market, prices, adopted))
  }
  return results
}

export interface SimulationOptions extends MarketShape {
  readonly cycles: number
}

export const simulate = (options: SimulationOptions, openShop: OpenShop) =>
  Effect.gen(function* () {
    const market = makeMarket(options)
    const policy = policyFor("profit")
    const arms: Array<{ readonly name: ArmName; readonly cycles: ReadonlyArray<ArmCycle> }> = []
    for (const objective of objectives) {
      arms.push({ name: objective, cycles: yield* engineArm(market, openShop, objective, options.cycles) })
    }
    arms.push({ name: "oracle", cycles: oracleArm(market, policy, options.cycles) })
    const nothing = measure(
      market,
      market.items.map((item) => item.startPrice),
      []
    )
    return { market, policy, nothing, arms } satisfies SimulationResult
  })
