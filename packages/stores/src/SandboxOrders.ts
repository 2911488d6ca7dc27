import { type CurrencyCode, formatMajorUnits } from "@margin/core/kernel/Money"
import type { StoreOrderLine } from "@margin/core/stores/StoreOrderLine"

const weekMillis = 7 * 24 * 60 * 60 * 1000

/**
 * How far back the sandbox's sales go: 12 weeks (two or three complete 30-day periods and the last 30
 * days), so that a large sandbox catalog (tests of tens of thousands of items) stays quick to sync.
 */
export const sandboxHistoryMillis = 12 * weekMillis

/** How demand answers price in the simulation: units scale with (price / first price) to this power. */
export const sandboxElasticity = -1.8

/** FNV-1a: a stable number from text, so the same week of the same variant always sells the same. */
const hash = (text: string): number => {
  let h = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    h ^= text.charCodeAt(index)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** A price the sandbox store's variant had until `at`, then `to` (its accepted write-backs). */
export interface SandboxPriceChange {
  readonly at: number
  readonly from: number
  readonly to: number
}

/** The price in force at `at`: the last change's until then, else the first change's old price, else today's. */
export const sandboxPriceAt = (current: number, changes: ReadonlyArray<SandboxPriceChange>, at: number): number => {
  let price = changes[0]?.from ?? current
  for (const change of changes) {
    if (change.at > at) break
    price = change.to
  }
  return price
}

/**
 * The sales the sandbox store simulates for one variant, so that a demo shows sales arriving: one order
 * line a week, dated mid-week (or now, for the week in progress, which sells its share of the week so
 * far), for every week ending after `from` within `sandboxHistoryMillis` of `now`. Units are the variant's own weekly demand (2 to 13, from its
 * ref), scaled by the price charged that week against its first price with `sandboxElasticity`, with
 * ±30 % of noise; one week in twenty has a unit refunded. Everything is a function of the variant, the
 * week and the price history, so a week read again is the same line (its ref: `sandbox:<ref>:<week>`).
 * Prices are charged as listed: the sandbox has no discounts.
 */
export const sandboxOrderLines = (
  variant: {
    readonly variantRef: string
    readonly sku: string
    readonly price: number
    readonly currency: CurrencyCode
  },
  changes: ReadonlyArray<SandboxPriceChange>,
  from: number,
  now: number
): ReadonlyArray<StoreOrderLine> => {
  const reference = changes[0]?.from ?? variant.price
  const weekly = 2 + (hash(variant.variantRef) % 12)
  const lines: Array<StoreOrderLine> = []
  const first = Math.floor(Math.max(from, now - sandboxHistoryMillis) / weekMillis)
  for (let week = first; week * weekMillis <= now; week++) {
    const start = week * weekMillis
    if (start + weekMillis <= from) continue
    const price = sandboxPriceAt(variant.price, changes, start)
    const noise = 0.7 + (hash(`${variant.variantRef}|${week}`) % 600) / 1000
    const demand = reference === 0 || price === 0 ? weekly : weekly * (price / reference) ** sandboxElasticity
    const units = Math.floor(Math.round(demand * noise) * Math.min(1, (now - start) / weekMillis))
    if (units === 0) continue
    lines.push({
      lineRef: `sandbox:${variant.variantRef}:${week}`,
      sku: variant.sku,
      soldAt: Math.min(start + weekMillis / 2, now),
      quantity: units,
      refunded: hash(`${variant.variantRef}|${week}|refund`) % 20 === 0 ? 1 : 0,
      currency: variant.currency,
      unitPrice: formatMajorUnits(price, variant.currency)
    })
  }
  return lines
}
