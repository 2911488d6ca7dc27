// The simulated market's truth: every item's cost, starting price, demand curve and true elasticity,
// the short price history 60 % of items start with and, as its switches say, the shocks, cost
// changes, competitors and late or thin items of a real market (MarketSwitches). The engine never
// sees the truth, only what a merchant would have: prices, costs, competitor prices, units sold and
// the history of past prices.
//
// Periods: period t ≥ 1 is the 30 days after cycle t's run; period 0 the 30 days before the first
// run (the starting units); periods −4 to −1 the starting history's.
import type { PricePoint } from "@margin/core/catalog/CatalogItem"
import { periodMs } from "@margin/core/catalog/PriceHistory"
import { competitorPath } from "./CompetitorPath.ts"
import { competitorElasticity, competitorFactor } from "./CompetitorResponse.ts"
import { curveDemand, curveElasticity, type DemandCurve } from "./DemandCurve.ts"
import { demandShocks } from "./DemandShocks.ts"
import type { MarketSwitches } from "./MarketSwitches.ts"
import { logUniform, normal, poisson, streamSeed, uniform } from "./Random.ts"

export interface MarketShape {
  readonly seed: number
  readonly items: number
  readonly categories: number
  /** Runs, each followed by a period of demand. */
  readonly cycles: number
  readonly switches: MarketSwitches
}

/** The steepest and the flattest true category elasticity. */
export const elasticityRange = { steepest: -4.0, flattest: -1.2 } as const
/** How far an item's true elasticity strays from its category's (standard deviation). */
export const itemNoise = 0.3
/** The share of items that start with a short price history; the rest start with none. */
export const historyShare = 0.6
/** The most points a starting history has: the first period is −maxHistory. */
export const maxHistory = 4
/** `costs`: the increase, in how many categories, from the cycle after the middle of the horizon. */
export const costIncrease = { factor: 1.12, categories: 2 } as const
/** `sparse`: the share of items arriving mid-way, and of items selling 1-3 units a month. */
export const sparseShares = { arriving: 0.1, lowVolume: 0.15 } as const
/** `curves`: the share of items on a linear curve (the rest on a logit one), and the logit's buying share at p0. */
export const curveShares = { linear: 0.5, logitLow: 0.2, logitHigh: 0.7 } as const

export interface MarketItem {
  /** The item's index in the market: its streams of randomness are keyed by it. */
  readonly index: number
  readonly sku: string
  readonly category: number
  /** Minor units (USD cents), before any cost change. */
  readonly cost: number
  /** The starting price, p0: doing nothing keeps it. */
  readonly startPrice: number
  /** Expected units per 30 days at the starting price in a normal period, λ0 (before the competitor's effect). */
  readonly baseDemand: number
  /** The curve's true elasticity at the starting price, below -1. */
  readonly elasticity: number
  readonly curve: DemandCurve
  /** Observations before the simulation starts, oldest first (empty for 40 % of items and for arriving ones). */
  readonly startHistory: ReadonlyArray<PricePoint>
  /** The units sold in the 30 days before the item's first run, at the starting price (0 for an arriving item). */
  readonly startUnits: number
  /** The first cycle the item is in the catalog: 1, or later for an item arriving mid-way. */
  readonly arrival: number
  /** The competitor's price of every period from −maxHistory (index period + maxHistory); null without one. */
  readonly competitorPrices: ReadonlyArray<number> | null
}

export interface Market {
  readonly shape: MarketShape
  /** The true elasticity of each category. */
  readonly categoryElasticities: ReadonlyArray<number>
  /** Per category, the demand multiplier of every period from −maxHistory; null in a market without shocks. */
  readonly shocks: ReadonlyArray<ReadonlyArray<number>> | null
  /** The categories whose cost rises, and from which cycle; null without the `costs` switch. */
  readonly costRise: { readonly categories: ReadonlyArray<number>; readonly from: number } | null
  readonly items: ReadonlyArray<MarketItem>
}

export const categoryTag = (category: number): string => `category-${category + 1}`

/** Whether the item is in the catalog in `cycle`. */
export const inCatalog = (item: MarketItem, cycle: number): boolean => item.arrival <= cycle

/** The item's cost in `period`, minor units. */
export const costAt = (market: Market, item: MarketItem, period: number): number =>
  market.costRise !== null && period >= market.costRise.from && market.costRise.categories.includes(item.category)
    ? Math.round(item.cost * costIncrease.factor)
    : item.cost

/** When the market's period 0 ends: the first cycle's import observes its units then (in the past: an import refuses a later time). */
const firstImport = Date.UTC(2025, 0, 1)

/** The end of `period`: when an import observes (`observed_at`) the units sold in it. */
export const periodEnd = (period: number): number => firstImport + period * periodMs

/** The competitor's price in `period`, or null. */
export const competitorAt = (item: MarketItem, period: number): number | null =>
  item.competitorPrices?.[period + maxHistory] ?? null

/** The category's demand multiplier in `period` (1 without shocks). */
export const shockAt = (market: Market, category: number, period: number): number =>
  market.shocks?.[category]?.[period + maxHistory] ?? 1

/** Expected units in `period` at `price`: λ0 × shock × curve(price / p0) × competitor factor. */
export const expectedUnits = (market: Market, item: MarketItem, price: number, period: number): number => {
  const competitor = competitorAt(item, period)
  return (
    item.baseDemand *
    shockAt(market, item.category, period) *
    curveDemand(item.curve, price / item.startPrice) *
    (competitor === null ? 1 : competitorFactor(price / competitor))
  )
}

/** Expected profit in `period` at `price`, in minor units (the true model's expectation, not a draw). */
export const expectedProfit = (market: Market, item: MarketItem, price: number, period: number): number =>
  (price - costAt(market, item, period)) * expectedUnits(market, item, price, period)

/** The true local elasticity d ln λ / d ln price at `price` in `period`: the curve's plus the competitor's. */
export const trueElasticity = (item: MarketItem, price: number, period: number): number => {
  const competitor = competitorAt(item, period)
  return (
    curveElasticity(item.curve, price / item.startPrice) +
    (competitor === null ? 0 : competitorElasticity(price / competitor))
  )
}

/** Stream keys: the market's own draws come before any cycle's. */
const categoryStream = -2
const itemStream = -1
const curveStream = -3
const sparseStream = -6
const costStream = -7

const curveOf = (switches: MarketSwitches, seed: number, index: number, elasticity: number): DemandCurve => {
  if (!switches.curves) return { _tag: "constant", elasticity }
  const next = uniform(streamSeed(seed, curveStream, index))
  if (next() < curveShares.linear) return { _tag: "linear", elasticity }
  return {
    _tag: "logit",
    elasticity,
    share: curveShares.logitLow + next() * (curveShares.logitHigh - curveShares.logitLow)
  }
}

/** The categories whose cost rises: `costIncrease.categories` distinct ones drawn from the seed. */
const risingCategories = (seed: number, categories: number): Array<number> => {
  const next = uniform(streamSeed(seed, costStream))
  const order = Array.from({ length: categories }, (_, category) => ({ category, key: next() }))
  return order
    .sort((a, b) => a.key - b.key)
    .slice(0, costIncrease.categories)
    .map(({ category }) => category)
    .sort((a, b) => a - b)
}

/** The market a seed, sizes and switches describe; deterministic. The tidy form is issue 28's market. */
export const makeMarket = (shape: MarketShape): Market => {
  const { steepest, flattest } = elasticityRange
  const { seed, switches, cycles } = shape
  // Stratified: the categories spread over the whole range whatever their number.
  const categoryElasticities = Array.from({ length: shape.categories }, (_, category) => {
    const next = uniform(streamSeed(seed, categoryStream, category))
    return flattest + (steepest - flattest) * ((category + next()) / shape.categories)
  })
  const shocks = switches.shocks ? demandShocks(seed, shape.categories, -maxHistory, cycles) : null
  const costRise = switches.costs
    ? { categories: risingCategories(seed, shape.categories), from: Math.floor(cycles / 2) + 1 }
    : null
  const market: Market = { shape, categoryElasticities, shocks, costRise, items: [] }
  const items = Array.from({ length: shape.items }, (_, index): MarketItem => {
    const next = uniform(streamSeed(seed, itemStream, index))
    const category = index % shape.categories
    const elasticity = Math.min(
      Math.max((categoryElasticities[category] ?? flattest) + itemNoise * normal(next), steepest - 0.5),
      -1.05
    )
    const cost = Math.round(logUniform(next, 200, 20_000))
    const margin = 0.1 + next() * 0.5
    const startPrice = Math.round(cost / (1 - margin))
    const drawnDemand = logUniform(next, 3, 300)
    // The switches draw from their own streams, so that the tidy market's items stay as they were.
    const sparse = uniform(streamSeed(seed, sparseStream, index))
    const arriving = switches.sparse && sparse() < sparseShares.arriving
    const arrival = arriving ? 2 + Math.floor(sparse() * Math.floor(cycles / 2)) : 1
    const lowVolume = switches.sparse && sparse() < sparseShares.lowVolume
    const item: MarketItem = {
      index,
      sku: `MKT-${index.toString().padStart(6, "0")}`,
      category,
      cost,
      startPrice,
      baseDemand: lowVolume ? logUniform(sparse, 1, 3) : drawnDemand,
      elasticity,
      curve: curveOf(switches, seed, index, elasticity),
      startHistory: [],
      startUnits: 0,
      arrival,
      competitorPrices: switches.competitors ? competitorPath(seed, index, startPrice, -maxHistory, cycles) : null
    }
    const startHistory: Array<PricePoint> = []
    if (next() < historyShare) {
      const points = 2 + Math.floor(next() * 3)
      for (let point = 0; point < points; point++) {
        const price = Math.round(startPrice * (0.85 + next() * 0.3))
        startHistory.push({ price, units: poisson(expectedUnits(market, item, price, point - points), next) })
      }
    }
    const startUnits = poisson(expectedUnits(market, item, startPrice, 0), next)
    // An arriving item is new: no past and no sales.
    return arriving ? item : { ...item, startHistory, startUnits }
  })
  return { ...market, items }
}

/** The units an item sells in period `cycle` at `price`: a Poisson draw from the item and cycle's own stream. */
export const realisedUnits = (market: Market, item: MarketItem, cycle: number, price: number): number =>
  poisson(expectedUnits(market, item, price, cycle), uniform(streamSeed(market.shape.seed, cycle, item.index)))
