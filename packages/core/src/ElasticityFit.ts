import type { PricePoint } from "./Elasticity.ts"

/** One item's own estimate: the log-log slope and its variance (the square of its standard error). */
export interface ElasticityFit {
  readonly slope: number
  readonly variance: number
  /** The weighted means of ln(price) and ln(units): the fitted line passes through them. */
  readonly meanLogPrice: number
  readonly meanLogUnits: number
  /** The usable observations: the price history's and the current price with its units sold. */
  readonly sampleSize: number
}

/**
 * The variance of ln(units) beyond counting noise: demand moves a few percent a period for reasons
 * other than the price. Also keeps a high-volume point from claiming near-infinite precision.
 */
const demandNoise = 0.0025
/** Prices closer than this (max / min) say nothing about demand. */
const minimumSpread = 1.01

const usable = (price: number, units: number): boolean =>
  price > 0 && units > 0 && Number.isFinite(price) && Number.isFinite(units)

// ln(units) of a Poisson count with mean q has variance about 1/q: a point weighs 1 / (1/q + noise).
const weightOf = (units: number): number => 1 / (1 / units + demandNoise)

/**
 * Weighted least squares of ln(units) on ln(price) over the item's history and its current point
 * (price, units sold in the last 30 days). The variance is 1 / Σw(x − x̄)², inflated by the
 * residuals' excess over the counting noise when there are more than two points (never deflated):
 * so an observation on the fitted curve never widens it, and conflicting ones do.
 * Null when fewer than two usable points or their prices lie within 1 % of each other.
 */
export const fitElasticity = (
  history: ReadonlyArray<PricePoint>,
  price: number,
  units: number
): ElasticityFit | null => {
  const size = history.length
  if (size === 0) return null
  let count = 0
  let weights = 0
  let meanX = 0
  let meanY = 0
  let lowest = Number.POSITIVE_INFINITY
  let highest = 0
  for (let i = 0; i <= size; i++) {
    const p = i < size ? (history[i]?.price ?? 0) : price
    const q = i < size ? (history[i]?.units ?? 0) : units
    if (!usable(p, q)) continue
    const w = weightOf(q)
    count++
    weights += w
    meanX += w * Math.log(p)
    meanY += w * Math.log(q)
    lowest = Math.min(lowest, p)
    highest = Math.max(highest, p)
  }
  if (count < 2 || highest < lowest * minimumSpread) return null
  meanX /= weights
  meanY /= weights
  let sxx = 0
  let sxy = 0
  for (let i = 0; i <= size; i++) {
    const p = i < size ? (history[i]?.price ?? 0) : price
    const q = i < size ? (history[i]?.units ?? 0) : units
    if (!usable(p, q)) continue
    const w = weightOf(q)
    const dx = Math.log(p) - meanX
    sxx += w * dx * dx
    sxy += w * dx * (Math.log(q) - meanY)
  }
  const slope = sxy / sxx
  let chiSquare = 0
  if (count > 2) {
    for (let i = 0; i <= size; i++) {
      const p = i < size ? (history[i]?.price ?? 0) : price
      const q = i < size ? (history[i]?.units ?? 0) : units
      if (!usable(p, q)) continue
      const residual = Math.log(q) - meanY - slope * (Math.log(p) - meanX)
      chiSquare += weightOf(q) * residual * residual
    }
  }
  const inflation = count > 2 ? Math.max(1, chiSquare / (count - 2)) : 1
  return { slope, variance: inflation / sxx, sampleSize: count, meanLogPrice: meanX, meanLogUnits: meanY }
}
