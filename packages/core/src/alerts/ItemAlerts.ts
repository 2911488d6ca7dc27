import { type CurrencyCode, formatMoney } from "../kernel/Money.ts"
import { floorReason, formatPercent } from "../pricing/Explanation.ts"
import type { PriceLimits } from "../pricing/PriceLimits.ts"
import type { AlertFinding } from "./AlertFinding.ts"

/** The catalog facts the alerts of one item are judged on (minor units; null = unknown). */
export interface AlertSubject {
  readonly currency: CurrencyCode
  readonly price: number
  readonly cost: number | null
  readonly previousCost: number | null
  readonly storePrice: number | null
}

const none: ReadonlyArray<AlertFinding> = []

/**
 * The alerts one item raises, always in this order: negative margin, below floor, missing cost,
 * cost changed, price drift, floor above ceiling. A loss-making price is below the floor too and
 * raises both: they are resolved separately (a price raised to the cost is still below the floor).
 */
export const itemAlerts = (
  s: AlertSubject,
  currentMargin: number | null,
  limits: PriceLimits,
  minMargin: number
): ReadonlyArray<AlertFinding> => {
  const { cost, currency, previousCost, price, storePrice } = s
  const { ceiling, floor } = limits
  const found: Array<AlertFinding> = []
  if (cost !== null && price < cost) {
    const margin = currentMargin === null ? "" : ` (margin ${formatPercent(currentMargin)})`
    found.push({
      kind: "negative_margin",
      severity: "critical",
      message: `Price ${formatMoney(price, currency)} is below cost ${formatMoney(cost, currency)}${margin}: every sale loses money.`
    })
  }
  if (price < floor) {
    found.push({
      kind: "below_floor",
      severity: "warning",
      message: `Price ${formatMoney(price, currency)} is below the floor of ${formatMoney(floor, currency)} (${floorReason(limits.floorIsMinPrice, minMargin)}).`
    })
  }
  if (cost === null) {
    found.push({
      kind: "missing_cost",
      severity: "warning",
      message: "No cost is recorded: margins cannot be computed and only the min and max prices apply."
    })
  }
  if (cost !== null && previousCost !== null && cost !== previousCost) {
    const sign = cost > previousCost ? "+" : ""
    const change = previousCost > 0 ? ` (${sign}${formatPercent((cost - previousCost) / previousCost)})` : ""
    found.push({
      kind: "cost_changed",
      severity: "info",
      message: `Cost changed from ${formatMoney(previousCost, currency)} to ${formatMoney(cost, currency)}${change} since the previous run.`
    })
  }
  if (storePrice !== null && storePrice !== price) {
    found.push({
      kind: "price_drift",
      severity: "warning",
      message: `The store sells at ${formatMoney(storePrice, currency)} but the catalog price is ${formatMoney(price, currency)}.`
    })
  }
  if (floor > ceiling) {
    found.push({
      kind: "floor_above_ceiling",
      severity: "warning",
      message: `The floor of ${formatMoney(floor, currency)} (${floorReason(limits.floorIsMinPrice, minMargin)}) is above the maximum price of ${formatMoney(ceiling, currency)}: no price satisfies both, so none is recommended.`
    })
  }
  return found.length === 0 ? none : found
}
