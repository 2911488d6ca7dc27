// What the simulation asks of the service, whichever way it is driven (the pure engine, or the use
// cases over the memory adapters): import the catalog, run, adopt every recommendation.
import type { CatalogItemInput } from "@margin/core/catalog/CatalogItem"
import { CurrencyCode } from "@margin/core/kernel/Money"
import type { PricingPolicy } from "@margin/core/pricing/PricingPolicy"
import type { Effect, Scope } from "effect"
import { categoryTag, competitorAt, costAt, type Market, type MarketItem } from "./Market.ts"

/** One adopted recommendation: the item (its index in the market) moved from one price to another. */
export interface Adoption {
  readonly index: number
  readonly from: number
  readonly to: number
  /** The recommendation's rule code (the oracle's moves say `oracle`). */
  readonly rule: string
  /** The elasticity the recommendation was priced with; null for the oracle, which knows the truth. */
  readonly elasticity: number | null
  /** Its interval [low, high]; null for the oracle. */
  readonly interval: readonly [number, number] | null
}

export interface Shop {
  /**
   * Cycle `cycle`'s import: every item in the catalog then (an arriving item for the first time), at
   * the price in force, with the period's cost and competitor price and `units[index]`, the units it
   * sold in the last 30 days.
   */
  readonly importCatalog: (cycle: number, units: ReadonlyArray<number>) => Effect.Effect<void>
  /** One run over the whole catalog, every recommendation adopted (the catalog takes the new price). */
  readonly runAndAdopt: Effect.Effect<ReadonlyArray<Adoption>>
}

/** Opens a shop with the market's starting histories; its first import brings the catalog. */
export type OpenShop = (market: Market, policy: PricingPolicy) => Effect.Effect<Shop, never, Scope.Scope>

const usd = CurrencyCode.make("USD")

/** What an import supplies for an item in `period`, at `price` with `units` sold in the last 30 days. */
export const itemInput = (
  market: Market,
  item: MarketItem,
  period: number,
  price: number,
  units: number
): CatalogItemInput => ({
  sku: item.sku,
  title: `Market item ${item.index}`,
  tags: [categoryTag(item.category)],
  currency: usd,
  price,
  cost: costAt(market, item, period),
  compareAtPrice: null,
  minPrice: null,
  maxPrice: null,
  inventory: null,
  unitsSold30d: units,
  competitorPrice: competitorAt(item, period)
})
