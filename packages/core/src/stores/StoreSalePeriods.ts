import type { CatalogPatch } from "../catalog/CatalogPatch.ts"
import type { SalesPeriod } from "../catalog/PriceHistory.ts"
import type { Timestamp } from "../kernel/Timestamp.ts"
import type { StoreSaleTotal } from "./StoreSalesRepository.ts"

const dayMillis = 24 * 60 * 60 * 1000

/**
 * Sales are counted in periods of 30 days on a fixed grid (period `k` is `[k * 30 d, (k + 1) * 30 d)` from
 * the Unix epoch), so that every sync puts a sale in the same period and a period read twice is the same
 * period: its point of the price history is replaced, never added again.
 */
export const salesPeriodMillis = 30 * dayMillis

/** How far back a full read of the orders goes, and how old a period's point may be. */
export const salesHistoryMillis = 365 * dayMillis

/** The window of `units_sold_30d`: the 30 days up to the sync. */
export const recentSalesMillis = 30 * dayMillis

/** The ends of the complete periods of the last `salesHistoryMillis` before `now`, oldest first. */
export const completePeriodEnds = (now: Timestamp): ReadonlyArray<Timestamp> => {
  const first = Math.ceil((now - salesHistoryMillis) / salesPeriodMillis)
  const last = Math.floor(now / salesPeriodMillis)
  // A period is complete when it began inside the history and has ended.
  return Array.from({ length: Math.max(0, last - first) }, (_, index) => (first + index + 1) * salesPeriodMillis)
}

/**
 * The partition of time the repository sums sales over (StoreSalesRepository.totals): the complete
 * periods' bounds, the start of the last 30 days and `now + 1` (a sale at `now` counts), ascending.
 */
export const salesBoundaries = (now: Timestamp): ReadonlyArray<Timestamp> => {
  const ends = completePeriodEnds(now)
  const starts = ends.length === 0 ? [] : [(ends[0] ?? 0) - salesPeriodMillis]
  return [...new Set([...starts, ...ends, now - recentSalesMillis, now + 1])].sort((a, b) => a - b)
}

/**
 * What the sales history says about each sku at `now`, as catalog patches: `unitsSold30d` (the units of
 * the last 30 days, refunds deducted) and one `SalesPeriod` per complete period of the last 12 months.
 * `totals` are the repository's sums over `salesBoundaries(now)`; a sku in `skus` with no total sold
 * nothing in the window (its units fall to 0 and its periods say so).
 */
export const salesPatches = (
  skus: ReadonlyArray<string>,
  totals: ReadonlyArray<StoreSaleTotal>,
  now: Timestamp
): ReadonlyArray<CatalogPatch> => {
  const boundaries = salesBoundaries(now)
  const ends = completePeriodEnds(now)
  const recentFrom = now - recentSalesMillis
  const bySku = new Map<string, Array<StoreSaleTotal>>()
  for (const total of totals) {
    const rows = bySku.get(total.sku)
    if (rows === undefined) bySku.set(total.sku, [total])
    else rows.push(total)
  }
  return skus.map((sku): CatalogPatch => {
    const rows = bySku.get(sku) ?? []
    let recent = 0
    const periods = ends.map((end) => ({ at: end, units: 0, revenue: 0 }))
    for (const row of rows) {
      const start = boundaries[row.interval] ?? 0
      if (start >= recentFrom) recent += row.units
      const period = periods.find((candidate) => start >= candidate.at - salesPeriodMillis && start < candidate.at)
      if (period !== undefined) {
        period.units += row.units
        period.revenue += row.revenue
      }
    }
    const currency = rows[0]?.currency
    return {
      sku,
      // Prices of the periods are in the sales' currency; a sku that sold nothing names none.
      ...(currency === undefined ? {} : { currency }),
      unitsSold30d: recent,
      salesPeriods: periods.map(
        ({ at, units, revenue }): SalesPeriod => ({
          at,
          units,
          price: units === 0 ? null : Math.round(revenue / units)
        })
      )
    }
  })
}
