import type { CurrencyCode } from "../kernel/Money.ts"
import type { SalesPeriod } from "./PriceHistory.ts"
import type { Tag } from "./Tag.ts"

/**
 * What one import line says about one item, and only that. A field left out (`undefined`) was not
 * mentioned: the item keeps it. `null` clears a field that may be unknown. Amounts stay the decimal
 * text of the file until the item's currency is known (a line need not name it), so they are
 * turned into minor units when the line is applied (CatalogImportDecision).
 */
export interface CatalogPatch {
  readonly sku: string
  readonly title?: string
  /** An empty list: the item has no tags any more. */
  readonly tags?: ReadonlyArray<Tag>
  readonly currency?: CurrencyCode
  readonly price?: string
  readonly cost?: string | null
  readonly compareAtPrice?: string | null
  readonly minPrice?: string | null
  readonly maxPrice?: string | null
  readonly inventory?: number | null
  readonly unitsSold30d?: number
  readonly storeProductRef?: string | null
  readonly storeVariantRef?: string | null
  readonly competitorPrice?: string | null
  /**
   * Complete periods of the item's sales as the store's orders tell them (a store sync's, never a file's):
   * each becomes, or replaces, the price-history point of its period (PriceHistory.withSalesPeriods).
   * Prices are minor units of `currency`, which the patch then names.
   */
  readonly salesPeriods?: ReadonlyArray<SalesPeriod>
  /** When the line's price was in force (epoch ms); left out, the time of the import. */
  readonly observedAt?: number
}

/** A patch with the file line it came from (for the rejections it may earn). */
export interface CatalogPatchLine {
  readonly line: number
  readonly patch: CatalogPatch
}
