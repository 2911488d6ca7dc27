import type { CatalogImportSummary } from "@margin/core/catalog/CatalogImportSummary"
import { Schema } from "effect"

const Count = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))

/** What an import did (CatalogImportSummary), as REST, MCP and marginctl answer it. */
export const CatalogImportSummaryJson = Schema.Struct({
  /** Lines whose sku was new: items created. */
  created: Count,
  /** Lines that changed an existing item (counted again by kind below). */
  updated: Count,
  price_changed: Count,
  cost_changed: Count,
  /** Any other field: title, tags, amounts, inventory, units sold, store refs, competitor price. */
  other_changed: Count,
  /** Lines that said what the item already held. */
  unchanged: Count,
  /** Lines whose price was older than the item's (an earlier observed_at, or the price a write-back replaced): kept. */
  stale_price: Count,
  /** The first 1,000 rejected lines, in file order. */
  rejected: Schema.Array(Schema.Struct({ line: Count, error: Schema.String })),
  rejected_total: Count
}).annotate({ identifier: "CatalogImportSummary" })
export type CatalogImportSummaryJson = typeof CatalogImportSummaryJson.Type

export const catalogImportSummaryJson = (summary: CatalogImportSummary): CatalogImportSummaryJson => ({
  created: summary.created,
  updated: summary.updated,
  price_changed: summary.priceChanged,
  cost_changed: summary.costChanged,
  other_changed: summary.otherChanged,
  unchanged: summary.unchanged,
  stale_price: summary.stalePrice,
  rejected: summary.rejected.map(({ line, error }) => ({ line, error })),
  rejected_total: summary.rejectedTotal
})
