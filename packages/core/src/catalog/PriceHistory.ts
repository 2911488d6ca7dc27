import type { Timestamp } from "../kernel/Timestamp.ts"
import type { CatalogItem, PricePoint } from "./CatalogItem.ts"

/**
 * How many past observations an item keeps for the elasticity estimate: two years of monthly periods.
 * The estimate weighs points by recency, so older ones would add little.
 */
export const priceHistoryLimit = 24

/** The length of a sales period: `units_sold_30d` counts 30 days. */
export const periodMs = 30 * 86_400_000

/**
 * Units counted at least this long after the newest recorded period are a new period: nine tenths of one,
 * so that a monthly import a few days early (a 28-day February) still counts, and daily syncs of a rolling
 * 30-day count record one point a month rather than thirty overlapping ones.
 */
export const newPeriodAfter = 27 * 86_400_000

type HistoryState = Pick<CatalogItem, "price" | "unitsSold30d" | "unitsCountedAt" | "competitorPrice" | "priceHistory">

/** The newest recorded period's end; null without a timed point (none, or points from before periods were kept). */
const newestAt = (history: ReadonlyArray<PricePoint>): number | null => history.at(-1)?.at ?? null

/** The item's current state as a point: its price, the units counted then, the competitor price and when. */
const stateOf = (item: HistoryState): PricePoint => {
  const point: { price: number; units: number; competitorPrice?: number; at?: number } = {
    price: item.price,
    units: item.unitsSold30d
  }
  if (item.competitorPrice !== null) point.competitorPrice = item.competitorPrice
  if (item.unitsCountedAt !== null) point.at = item.unitsCountedAt
  return point
}

const appended = (history: ReadonlyArray<PricePoint>, point: PricePoint): ReadonlyArray<PricePoint> =>
  [...history, point].slice(-priceHistoryLimit)

/**
 * Whether the current state is news to the history when the price changes: its units were counted after
 * the newest recorded period (a second price change in the same period adds nothing: those units are
 * already recorded, at the price they were sold at). Without a time on either side, as before periods
 * were kept: always.
 */
const stateIsNews = (item: HistoryState): boolean => {
  const newest = newestAt(item.priceHistory)
  return item.unitsCountedAt === null || newest === null || item.unitsCountedAt > newest
}

/**
 * A new price for an item. When the price really changes and the outgoing state is news (stateIsNews),
 * the outgoing price, the units sold while it was in force, the competitor price then and when they were
 * counted become one observation of the item's price history.
 */
export const withPrice = (item: HistoryState, price: number): Pick<CatalogItem, "price" | "priceHistory"> =>
  price === item.price || !stateIsNews(item)
    ? { price, priceHistory: item.priceHistory }
    : { price, priceHistory: appended(item.priceHistory, stateOf(item)) }

/** A count replaced within this time is a correction of it, never a period of its own. */
export const correctionWindow = 86_400_000

/**
 * New units counted up to `at` (the `observed_at` of the line, else the time of the file). When the
 * outgoing units belong to a period the history has not recorded yet (counted at least `newPeriodAfter`
 * after its newest point, or the history has no timed point) and are not being corrected (counted at least
 * `correctionWindow` before the new ones), the outgoing state becomes a point even though the price did not
 * change: every period of every item is evidence of its category's demand level (PeriodEffects). Otherwise
 * the newer count replaces the current one (a correction, a rolling count synced daily, or the units after a
 * write-back already recorded their period). Units counted earlier than the current ones are older news and
 * change nothing; so does the same count re-sent within the period.
 */
export const withUnits = (
  item: HistoryState,
  units: number,
  at: Timestamp
): Pick<CatalogItem, "unitsSold30d" | "unitsCountedAt" | "priceHistory"> => {
  const counted = item.unitsCountedAt
  const unchanged = { unitsSold30d: item.unitsSold30d, unitsCountedAt: counted, priceHistory: item.priceHistory }
  if (counted === null) return { unitsSold30d: units, unitsCountedAt: at, priceHistory: item.priceHistory }
  if (at < counted || (units === item.unitsSold30d && at - counted < newPeriodAfter)) return unchanged
  const newest = newestAt(item.priceHistory)
  const newPeriod = at - counted >= correctionWindow && (newest === null || counted - newest >= newPeriodAfter)
  return {
    unitsSold30d: units,
    unitsCountedAt: at,
    priceHistory: newPeriod ? appended(item.priceHistory, stateOf(item)) : item.priceHistory
  }
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
