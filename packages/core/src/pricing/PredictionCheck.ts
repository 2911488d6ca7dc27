import type { PredictionMiss } from "./Elasticity.ts"
import { logCount, type PeriodChange } from "./PeriodEffects.ts"

/** The two-sided 90 % range: a realisation outside it is a miss. */
const z90 = 1.6448536269514722

/** What the check found: how much to widen the estimate's variance (1 = not at all), and the miss to tell. */
export interface PredictionCheck {
  readonly widening: number
  readonly miss: PredictionMiss | null
}

/**
 * The check of the last prediction: from the units at the item's last price, its elasticity there as its
 * evidence before stood (`earlier`: mean and variance), its pool's curvature and period effect, the units
 * expected at the current price and their 90 % range (counting noise, the elasticity's uncertainty and the
 * period effect's). When the units sold fall outside it, the evidence about the item was wrong by more than
 * its uncertainty said: its variance is widened by (z / 1.645)², so that the trust rule's pessimistic end
 * reaches what the miss suggests, and the miss is told.
 */
export const checkPrediction = (
  change: PeriodChange,
  earlier: { readonly mean: number; readonly variance: number },
  pool: {
    readonly curvature: number
    readonly shift: number
    readonly shiftVariance: number
    readonly competitorResponse: number
  }
): PredictionCheck => {
  const x = change.logPriceChange
  const expected =
    pool.shift +
    pool.competitorResponse * (change.logCompetitorChange ?? 0) +
    x * (earlier.mean + (pool.curvature * x) / 2)
  const sd = Math.sqrt(change.variance + x * x * earlier.variance + pool.shiftVariance)
  const z = (change.logUnitsChange - expected) / sd
  if (Math.abs(z) <= z90) return { widening: 1, miss: null }
  const lastLogUnits = logCount(change.lastUnits)
  const unitsAt = (logUnits: number) => Math.max(0, Math.round(Math.exp(logUnits) - 0.5))
  return {
    widening: (z / z90) * (z / z90),
    miss: {
      predictedLow: unitsAt(lastLogUnits + expected - z90 * sd),
      predictedHigh: unitsAt(lastLogUnits + expected + z90 * sd),
      sold: change.units
    }
  }
}
