// The simulated market's truth: every item's cost, starting price, demand and true elasticity, and
// the short price history 60 % of items start with. The engine never sees the truth, only what a
// merchant would have: prices, costs, units sold and the history of past prices.
import type { PricePoint } from "@margin/core/CatalogItem"
import { poisson, streamSeed, uniform } from "./Random.ts"

export interface MarketShape {
  readonly seed: number
  readonly items: number
  readonly categories: number
}

/** The steepest and the flattest true category elasticity. */
export const elasticityRange = { steepest: -4.0, flattest: -1.2 } as const
/** How far an item's true elasticity strays from its category's (standard deviation). */
export const itemNoise = 0.3
/** The share of items that start with a short price history; the rest start with none. */
export const historyShare = 0.6

export interface MarketItem {
  /** The item's index in the market: its streams of randomness are keyed by it. */
  readonly index: number
  readonly sku: string
  readonly category: number
  /** Minor units (USD cents). */
  readonly cost: number
  /** The starting price, p0: doing nothing keeps it. */
  readonly startPrice: number
  /** Expected units per 30 days at the starting price, λ0. */
  readonly baseDemand: number
  /** The true constant elasticity, below -1. */
  readonly elasticity: number
  /** Observations before the simulation starts, oldest first (empty for 40 % of items). */
  readonly startHistory: ReadonlyArray<PricePoint>
  /** The units sold in the 30 days before the first run, at the starting price. */
  readonly startUnits: number
}

export interface Market {
  readonly shape: MarketShape
  /** The true elasticity of each category. */
  readonly categoryElasticities: ReadonlyArray<number>
  readonly items: ReadonlyArray<MarketItem>
}

export const categoryTag = (category: number): string => `category-${category + 1}`

/** Expected units per 30 days at `price`: λ0 × (price / p0)^e. */
export const expectedUnits = (item: MarketItem, price: number): number =>
  item.baseDemand * (price / item.startPrice) ** item.elasticity

/** Expected profit per 30 days at `price`, in minor units (the true model's expectation, not a draw). */
export const expectedProfit = (item: MarketItem, price: number): number =>
  (price - item.cost) * expectedUnits(item, price)

/** A standard normal draw (Box-Muller). */
const normal = (next: () => number): number => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next())

const logUniform = (next: () => number, low: number, high: number): number =>
  Math.exp(Math.log(low) + next() * (Math.log(high) - Math.log(low)))

/** Stream keys: the market's own draws come before any cycle's. */
const categoryStream = -2
const itemStream = -1

/** The market a seed and sizes describe; deterministic. */
export const makeMarket = (shape: MarketShape): Market => {
  const { steepest, flattest } = elasticityRange
  // Stratified: the categories spread over the whole range whatever their number.
  const categoryElasticities = Array.from({ length: shape.categories }, (_, category) => {
    const next = uniform(streamSeed(shape.seed, categoryStream, category))
    return flattest + (steepest - flattest) * ((category + next()) / shape.categories)
  })
  const items = Array.from({ length: shape.items }, (_, index): MarketItem => {
    const next = uniform(streamSeed(shape.seed, itemStream, index))
    const category = index % shape.categories
    const elasticity = Math.min(
      Math.max((categoryElasticities[category] ?? flattest) + itemNoise * normal(next), steepest - 0.5),
      -1.05
    )
    const cost = Math.round(logUniform(next, 200, 20_000))
    const margin = 0.1 + next() * 0.5
    const startPrice = Math.round(cost / (1 - margin))
    const baseDemand = logUniform(next, 3, 300)
    const truth = { index, sku: `MKT-${index.toString().padStart(6, "0")}`, category, cost, startPrice, elasticity }
    const demandAt = (price: number) => baseDemand * (price / startPrice) ** elasticity
    const startHistory: Array<PricePoint> = []
    if (next() < historyShare) {
      const points = 2 + Math.floor(next() * 3)
      for (let point = 0; point < points; point++) {
        const price = Math.round(startPrice * (0.85 + next() * 0.3))
        startHistory.push({ price, units: poisson(demandAt(price), next) })
      }
    }
    return { ...truth, baseDemand, startHistory, startUnits: poisson(baseDemand, next) }
  })
  return { shape, categoryElasticities, items }
}

/** The units an item sells in `cycle` at `price`: a Poisson draw from the item and cycle's own stream. */
export const realisedUnits = (market: Market, item: MarketItem, cycle: number, price: number): number =>
  poisson(expectedUnits(item, price), uniform(streamSeed(market.shape.seed, cycle, item.index)))
