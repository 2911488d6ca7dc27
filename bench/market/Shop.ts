// What the simulation asks of the service, whichever way it is driven (the pure engine, or the use
// cases over the memory adapters): run, adopt every recommendation, record a period's sales.
import type { CatalogItemInput } from "@margin/core/CatalogItem"
import { CurrencyCode } from "@margin/core/Money"
import type { PricingPolicy } from "@margin/core/PricingPolicy"
import type { Effect, Scope } from "effect"
import { categoryTag, type Market, type MarketItem } from "./Market.ts"

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
  /** One run over the whole catalog, every recommendation adopted (the catalog takes the new price). */
  readonly runAndAdopt: Effect.Effect<ReadonlyArray<Adoption>>
  /** A period's units sold, per item in market order, at the prices now in force. */
  readonly recordSales: (units: ReadonlyArray<number>) => Effect.Effect<void>
}

/** Opens a shop selling the market's items at their starting prices, with their starting histories. */
export type OpenShop = (market: Market, policy: PricingPolicy) => Effect.Effect<Shop, never, Scope.Scope>

const usd = CurrencyCode.make("USD")

/** What an import supplies for an item, at `price` with `units` sold in the last 30 days. */
export const itemInput = (item: MarketItem, price: number, units: number): CatalogItemInput => ({
  sku: item.sku,
  title: `Market item ${item.index}`,
  tags: [categoryTag(item.category)],
  currency: usd,
  price,
  cost: item.cost,
  compareAtPrice: null,
  minPrice: null,
  maxPrice: null,
  inventory: null,
  unitsSold30d: units
})
