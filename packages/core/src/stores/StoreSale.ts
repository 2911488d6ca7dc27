import { Result, Schema } from "effect"
import { CurrencyCode, parseMajorUnits } from "../kernel/Money.ts"
import { Timestamp } from "../kernel/Timestamp.ts"
import type { StoreOrderLine } from "./StoreOrderLine.ts"

const Count = Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)))

/**
 * One order line as the sales history keeps it: the units that stayed sold (refunded units left out) of
 * one sku, when, at the unit price charged (minor units, net of discounts). Keyed by the line's ref in
 * the store, so a line read again (its order updated, a refund) replaces what it said before.
 */
export const StoreSale = Schema.Struct({
  lineRef: Schema.String,
  sku: Schema.String,
  soldAt: Timestamp,
  units: Count,
  unitPrice: Count,
  currency: CurrencyCode
})
export type StoreSale = typeof StoreSale.Type

/** The sale an order line makes, or why it cannot be one (no sku to attribute it to, a bad amount). */
export const storeSaleOf = (line: StoreOrderLine): Result.Result<StoreSale, string> => {
  if (line.sku.trim().length === 0) return Result.fail(`order line ${line.lineRef} has no variant with a sku`)
  if (!Number.isSafeInteger(line.quantity) || line.quantity < 0 || !Number.isSafeInteger(line.refunded)) {
    return Result.fail(`order line ${line.lineRef}: quantity ${line.quantity}, refunded ${line.refunded}`)
  }
  return Result.map(
    Result.mapError(
      parseMajorUnits(line.unitPrice, line.currency),
      (reason) => `order line ${line.lineRef}: ${reason}`
    ),
    (unitPrice): StoreSale => ({
      lineRef: line.lineRef,
      sku: line.sku,
      soldAt: line.soldAt,
      // A refund of more than was sold (a line edited after the refund) leaves nothing, never less.
      units: Math.max(0, line.quantity - Math.max(0, line.refunded)),
      unitPrice,
      currency: line.currency
    })
  )
}
