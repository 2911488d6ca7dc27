import type { CurrencyCode } from "../kernel/Money.ts"
import type { Timestamp } from "../kernel/Timestamp.ts"

/**
 * One line of one order as a store sync reads it, whatever the platform: what was sold of one variant,
 * when, at what price and how much of it came back. Amounts are the store's decimal text in major units
 * of `currency` (the shop's), turned into minor units by StoreSale.storeSaleOf.
 */
export interface StoreOrderLine {
  /** The store's id of the line (a Shopify LineItem gid): reading the order again replaces the line. */
  readonly lineRef: string
  /** The sku of the line's variant as the store holds it now; empty when the variant has none or is gone. */
  readonly sku: string
  /** When the order was placed (Shopify: `processedAt`): the period the units count in. */
  readonly soldAt: Timestamp
  readonly quantity: number
  /** Units of this line refunded so far, whenever the refund was made. */
  readonly refunded: number
  readonly currency: CurrencyCode
  /** The price charged for one unit, net of the line's own and its share of the order's discounts. */
  readonly unitPrice: string
}
