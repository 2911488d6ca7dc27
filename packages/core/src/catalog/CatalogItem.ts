import { Schema } from "effect"
import { CatalogItemId, WorkspaceId } from "../kernel/Ids.ts"
import { CurrencyCode } from "../kernel/Money.ts"
import { Timestamp } from "../kernel/Timestamp.ts"
import { Tag } from "./Tag.ts"

const MinorUnits = Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)))
const Count = Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)))

/**
 * One observation of an item's past: a price it sold at, the units sold while it was in force and, when the
 * item had one then, the competitor price at the time (the elasticity fit reads demand net of its moves).
 * `at` is the end of the period its units were counted over: a store sync's sales periods
 * (StoreSalePeriods, from orders) or the units an import or sync brought for a new period (PriceHistory);
 * the estimate reads each period's demand level from all the items of a category (PeriodEffects).
 * Points recorded before periods were kept have none.
 */
export const PricePoint = Schema.Struct({
  price: MinorUnits,
  units: Count,
  competitorPrice: Schema.optionalKey(MinorUnits),
  at: Schema.optionalKey(Timestamp)
})
export type PricePoint = typeof PricePoint.Type

/** A sellable variant. Prices are integer minor units of `currency`; null = unknown. */
export const CatalogItem = Schema.Struct({
  id: CatalogItemId,
  workspaceId: WorkspaceId,
  sku: Schema.String,
  title: Schema.String,
  tags: Schema.Array(Tag),
  currency: CurrencyCode,
  price: MinorUnits,
  cost: Schema.NullOr(MinorUnits),
  compareAtPrice: Schema.NullOr(MinorUnits),
  minPrice: Schema.NullOr(MinorUnits),
  maxPrice: Schema.NullOr(MinorUnits),
  inventory: Schema.NullOr(Schema.Number.pipe(Schema.check(Schema.isInt()))),
  unitsSold30d: Count,
  /**
   * The end of the 30 days `unitsSold30d` were counted over: the `observed_at` (else the time) of the import
   * that brought them; null when unknown (an upsert, or an item stored before periods were kept). The
   * price history records the item's state once per period (PriceHistory).
   */
  unitsCountedAt: Schema.NullOr(Timestamp),
  storeProductRef: Schema.NullOr(Schema.String),
  storeVariantRef: Schema.NullOr(Schema.String),
  /** Cost at the previous run's snapshot; the next run compares against it. */
  analysedCost: Schema.NullOr(MinorUnits),
  priceHistory: Schema.Array(PricePoint),
  /** The lowest current competitor price, same currency; null = unknown. */
  competitorPrice: Schema.NullOr(MinorUnits),
  /**
   * Since when the current price is known to be in force: the time an import observed it (its
   * `observed_at`, else the time of the import) or the time a write-back applied it. An import that
   * observed a price earlier than this is older news and does not move the price (CatalogImportDecision).
   */
  priceSetAt: Timestamp,
  /**
   * The price a write-back replaced, while the write-back's price is still the item's; null once any
   * other price is set. An import that sends this price back without an `observed_at` is a file
   * exported before the write-back, not a new price (CatalogImportDecision).
   */
  writtenBackFrom: Schema.NullOr(MinorUnits),
  createdAt: Timestamp,
  updatedAt: Timestamp
})
export type CatalogItem = typeof CatalogItem.Type

/**
 * What an import or the CLI supplies for one item; ids and timestamps are the repository's. The
 * store refs are optional: left out, an update keeps the item's refs (an import without them never
 * unlinks an item from its store), and a new item has none. The competitor price is an optional import
 * column: a batch in which no item has it keeps the items' competitor prices; in a batch that has it, an
 * item without one (or with null) has none.
 */
export const CatalogItemInput = Schema.Struct({
  sku: Schema.String.pipe(Schema.check(Schema.isBetweenLength(1, 128))),
  title: Schema.String,
  tags: Schema.Array(Tag),
  currency: CurrencyCode,
  price: MinorUnits,
  cost: Schema.NullOr(MinorUnits),
  compareAtPrice: Schema.NullOr(MinorUnits),
  minPrice: Schema.NullOr(MinorUnits),
  maxPrice: Schema.NullOr(MinorUnits),
  inventory: Schema.NullOr(Schema.Number.pipe(Schema.check(Schema.isInt()))),
  unitsSold30d: Count,
  storeProductRef: Schema.optionalKey(Schema.String),
  storeVariantRef: Schema.optionalKey(Schema.String),
  competitorPrice: Schema.optionalKey(Schema.NullOr(MinorUnits))
})
export type CatalogItemInput = typeof CatalogItemInput.Type
