import type { Timestamp } from "../kernel/Timestamp.ts"
import type { CatalogItem, PricePoint } from "./CatalogItem.ts"

/** How many past (price, units) observations an item keeps for the elasticity estimate. */
export const priceHistoryLimit = 24

/**
 * A new price for an item. When the price really changes, the outgoing price and the units sold
 * while it was in force (and the competitor price then, if any) become one observation of the item's
 * price history.
 */
export const withPrice = (item: CatalogItem, price: number): Pick<CatalogItem, "price" | "priceHistory"> =>
  price === item.price
    ? { price, priceHistory: item.priceHistory }
    : {
        price,
        priceHistory: [
          ...item.priceHistory,
          (item.competitorPrice === null
            ? { price: item.price, units: item.unitsSold30d }
            : {
                price: item.price,
                units: item.unitsSold30d,
                competitorPrice: item.competitorPrice
              }) satisfies PricePoint
        ].slice(-priceHistoryLimit)
      }

/**
 * One complete period of an item's sales, as a store sync counts them (stores/StoreSalePeriods): its end
 * (`at`), the units that stayed sold, and the price charged (minor units) as the units-weighted mean of
 * the unit prices of its sales; null when nothing was sold in it.
 */
export interface SalesPeriod {
  readonly at: Timestamp
  readonly units: number
  readonly price: number | null
}

const samePoint = (a: PricePoint, b: PricePoint): boolean =>
  a.price === b.price && a.units === b.units && a.at === b.at && a.competitorPrice === b.competitorPrice

export const samePriceHistory = (a: ReadonlyArray<PricePoint>, b: ReadonlyArray<PricePoint>): boolean =>
  a.length === b.length &&
  a.every((point, index) => {
    const other = b[index]
    return other !== undefined && samePoint(point, other)
  })

/**
 * The history with the periods' observations: a period is one point (`at` its end) at the price charged
 * then. A period already in the history replaces its point (a late refund changes its units) instead of
 * adding one, so re-sending a known period adds nothing; a period in which nothing stayed sold has no
 * point (and loses the one it had). Points without `at` (recorded at a price change) keep their place
 * first; dated points follow in time order, and the oldest go beyond `priceHistoryLimit`.
 */
export const withSalesPeriods = (
  history: ReadonlyArray<PricePoint>,
  periods: ReadonlyArray<SalesPeriod>
): ReadonlyArray<PricePoint> => {
  const byEnd = new Map(periods.map((period) => [period.at, period]))
  const kept = history.filter((point) => point.at === undefined || !byEnd.has(point.at))
  const observed = periods.flatMap(
    (period): Array<PricePoint> =>
      period.price === null || period.units === 0 ? [] : [{ price: period.price, units: period.units, at: period.at }]
  )
  const undated = kept.filter((point) => point.at === undefined)
  const dated = [...kept.filter((point) => point.at !== undefined), ...observed].sort(
    (a, b) => (a.at ?? 0) - (b.at ?? 0)
  )
  return [...undated, ...dated].slice(-priceHistoryLimit)
}
