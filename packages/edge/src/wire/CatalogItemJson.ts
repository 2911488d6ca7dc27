import type { CatalogItem } from "@margin/core/catalog/CatalogItem"
import { toIso } from "@margin/core/kernel/Timestamp"
import { Schema } from "effect"
import { MoneyJson, moneyJson, nullableMoneyJson } from "./MoneyJson.ts"
import { IsoTimestamp } from "./TimestampJson.ts"

export const CatalogItemJson = Schema.Struct({
  id: Schema.String,
  sku: Schema.String,
  title: Schema.String,
  tags: Schema.Array(Schema.String),
  currency: Schema.String,
  price: MoneyJson,
  cost: Schema.NullOr(MoneyJson),
  compare_at_price: Schema.NullOr(MoneyJson),
  /** Floor (MAP) and ceiling the recommendations respect. */
  min_price: Schema.NullOr(MoneyJson),
  max_price: Schema.NullOr(MoneyJson),
  inventory: Schema.NullOr(Schema.Int),
  units_sold_30d: Schema.Int,
  store_product_ref: Schema.NullOr(Schema.String),
  store_variant_ref: Schema.NullOr(Schema.String),
  /** The lowest competitor price imported for the item; null when none. */
  competitor_price: Schema.NullOr(MoneyJson),
  created_at: IsoTimestamp,
  updated_at: IsoTimestamp
}).annotate({ identifier: "CatalogItem" })
export type CatalogItemJson = typeof CatalogItemJson.Type

export const catalogItemJson = (item: CatalogItem): CatalogItemJson => ({
  id: item.id,
  sku: item.sku,
  title: item.title,
  tags: item.tags,
  currency: item.currency,
  price: moneyJson(item.price, item.currency),
  cost: nullableMoneyJson(item.cost, item.currency),
  compare_at_price: nullableMoneyJson(item.compareAtPrice, item.currency),
  min_price: nullableMoneyJson(item.minPrice, item.currency),
  max_price: nullableMoneyJson(item.maxPrice, item.currency),
  inventory: item.inventory,
  units_sold_30d: item.unitsSold30d,
  store_product_ref: item.storeProductRef,
  store_variant_ref: item.storeVariantRef,
  competitor_price: nullableMoneyJson(item.competitorPrice, item.currency),
  created_at: toIso(item.createdAt),
  updated_at: toIso(item.updatedAt)
})
