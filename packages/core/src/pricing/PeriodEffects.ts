import { type CurvatureEvidence, curvatureOf } from "./DemandCurvature.ts"
import type { PricePoint } from "./Elasticity.ts"
import { demandNoise, type ElasticityFit, fitElasticity } from "./ElasticityFit.ts"

/**
 * What an item says about its category's period effect: how its demand moved between its last price
 * change and now. Its units went from `lastUnits` at `lastPrice` (the newest point of its price history)
 * to `units` at `price` now; part of that is the price (what its evidence before predicted, `previous`),
 * the rest is what moved its category's demand meanwhile: season, trend, a promotion elsewhere.
 */
export interface PeriodChange {
  /** The item's fit from its history alone, as it stood before the current period (null when too little). */
  readonly previous: ElasticityFit | null
  /** Its curvature evidence from its history alone (null when too little). */
  readonly previousCurvature: CurvatureEvidence | null
  readonly lastPrice: number
  readonly lastUnits: number
  /** The units sold in the last 30 days, at the current price. */
  readonly units: number
  /** ln(price / lastPrice). */
  readonly logPriceChange: number
  /** ln(units + ½) − ln(lastUnits + ½): ½ keeps small counts from biasing the log. */
  readonly logUnitsChange: number
  /** The counting variance of logUnitsChange: both counts at their mean, plus the demand noise of each. */
  readonly variance: number
  /** ln(competitor price now / then); null unless both are known. */
  readonly logCompetitorChange: number | null
}

/** Counts are logged with this added: E ln(q + ½) is close to ln of the mean even for small counts. */
export const logCount = (units: number): number => Math.log(units + 0.5)

/** The change since the last price change of an item with a price history; null without one or without sales. */
export const periodChange = (
  history: ReadonlyArray<PricePoint>,
  price: number,
  units: number,
  competitorPrice: number | null
): PeriodChange | null => {
  const last = history.at(-1)
  if (last === undefined || !(last.price > 0) || !(price > 0) || last.price === price) return null
  if (last.units <= 0 && units <= 0) return null
  const mean = (last.units + units) / 2
  const before = history.slice(0, -1)
  return {
    previous: fitElasticity(before, last.price, last.units),
    previousCurvature: curvatureOf(before, last.price, last.units),
    lastPrice: last.price,
    lastUnits: last.units,
    units,
    logPriceChange: Math.log(price / last.price),
    logUnitsChange: logCount(units) - logCount(last.units),
    variance: 2 / (mean + 0.5) + 2 * demandNoise,
    logCompetitorChange:
      competitorPrice !== null && competitorPrice > 0 && last.competitorPrice !== undefined && last.competitorPrice > 0
        ? Math.log(competitorPrice / last.competitorPrice)
        : null
  }
}

/**
 * The part of a change the price does not explain: its ln(units) change less the price's part, at
 * elasticity `e` at the last price and curvature `c` (ln units moves by e·x + c·x²/2 for x = ln(price ratio)),
 * with its variance (counting noise, and the elasticity's own variance `eVariance` times x²).
 */
export const unexplained = (
  change: PeriodChange,
  e: number,
  eVariance: number,
  c: number
): { readonly value: number; readonly variance: number } => {
  const x = change.logPriceChange
  return {
    value: change.logUnitsChange - x * (e + (c * x) / 2),
    variance: change.variance + x * x * eVariance
  }
}
