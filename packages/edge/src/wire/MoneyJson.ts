import { type CurrencyCode, formatMajorUnits } from "@margin/core/kernel/Money"
import { Schema } from "effect"

/** Money on the wire: integer minor units and the currency, plus the same amount as a decimal string. */
export const MoneyJson = Schema.Struct({
  amount_minor: Schema.Int,
  currency: Schema.String,
  amount_decimal: Schema.String
}).annotate({ identifier: "Money", description: "amount_minor is an integer count of the currency's minor units" })
export type MoneyJson = typeof MoneyJson.Type

export const moneyJson = (minor: number, currency: CurrencyCode): MoneyJson => ({
  amount_minor: minor,
  currency,
  amount_decimal: formatMajorUnits(minor, currency)
})

export const nullableMoneyJson = (minor: number | null, currency: CurrencyCode): MoneyJson | null =>
  minor === null ? null : moneyJson(minor, currency)
