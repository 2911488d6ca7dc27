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
  /**
   * The plain mean of ln(price) over the usable observations: where the item's prices have been. Its
   * pool describes elasticities there (ElasticityPools), and the curvature carries them to the price now.
   */
  readonly anchorLogPrice: number
  /**
   * How the slope moves with the current point's ln(units): d slope / d y = w (x − x̄) / Σw(x − x̄)². A
   * period effect s read off the current point changes the slope by −s × currentLever (ElasticityPools).
   */
  readonly currentLever: number
}

/**
 * The variance of ln(units) beyond counting noise: demand moves a few percent a period for reasons
 * other than the price. Also keeps a high-volume point from claiming near-infinite precision.
 */
export const demandNoise = 0.0025
/** Prices closer than this (max / min) say nothing about demand. */
const minimumSpread = 1.01
/**
 * How much one more price change ages an observation: the k-th newest past point counts recency^k
 * (the current point 1). Demand drifts and curves bend, so what the item did lately says more about
 * its demand now than what it did long ago.
 */
export const recency = 0.8
/**
 * How far from the current price an observation still describes the demand there: a point at a
 * log-distance d counts 1 / (1 + (d / bandwidth)²), half at ±15 %. Elasticity changes with the price
 * (linear and logit demand), so the slope that matters is the one near the current price.
 */
export const bandwidth = 0.15

/**
 * The competitor's part of an item's demand: its competitor price now and the pool's response of demand
 * to it, d ln units / d ln competitor price (PeriodEffects). Past points sold under another competitor price
 * are read as if the competitor had been where it is now.
 */
export interface CompetitorTerm {
  readonly price: number
  readonly response: number
}

/**
 * The demand level of a past point's period relative to now, in ln(units) (PeriodEffects): the point is read
 * less it, so that a season is not read as price response.
 */
export type PastLevel = (point: PricePoint) => number

/**
 * The age of each point in price changes (the current point, index `history.length`, 0): the k-th price
 * change back ages a point by k. A point per period at an unchanged price ages no other point: what
 * says how the item's demand answers its price are its price changes, not the months between them.
 */
export const priceChangeAges = (history: ReadonlyArray<PricePoint>, price: number): Array<number> => {
  const ages = new Array<number>(history.length + 1)
  let age = 0
  let next = price
  ages[history.length] = 0
  for (let i = history.length - 1; i >= 0; i--) {
    const p = history[i]?.price ?? 0
    if (p !== next) age++
    ages[i] = age
    next = p
  }
  return ages
}

const usable = (price: number, units: number): boolean =>
  price > 0 && units > 0 && Number.isFinite(price) && Number.isFinite(units)

// ln(units) of a Poisson count with mean q has variance about 1/q: a point weighs 1 / (1/q + noise).
const countWeight = (units: number): number => 1 / (1 / units + demandNoise)

/** How much a point `age` price changes old at log-distance `distance` from the current price counts. */
export const localWeight = (age: number, distance: number): number =>
  recency ** age / (1 + (distance / bandwidth) * (distance / bandwidth))

/**
 * Weighted least squares of ln(units) on ln(price) over the item's history and its current point
 * (price, units sold in the last 30 days), local and recent: each point weighs its counting precision
 * times `localWeight` (its age in price changes and its distance from the current price). The
 * current point's ln(units) is read less `currentShift`: the period effect of its category (see
 * PeriodEffects), so that a season is not read as price response; and a past point sold under another
 * competitor price less the competitor's part of the difference (`competitor`). The variance is 1 / Σw(x − x̄)²,
 * inflated by the residuals' excess over the counting noise when there are more than two points
 * (never deflated): so an observation on the fitted curve never widens it, and conflicting ones do.
 * Null when fewer than two usable points or their prices lie within 1 % of each other.
 */
export const fitElasticity = (
  history: ReadonlyArray<PricePoint>,
  price: number,
  units: number,
  currentShift = 0,
  competitor: CompetitorTerm | null = null,
  pastLevel: PastLevel | null = null
): ElasticityFit | null => {
  const size = history.length
  if (size === 0 || !(price > 0)) return null
  const logPrice = Math.log(price)
  const ages = priceChangeAges(history, price)
  // ln(units) of point i, read at today's period effect and competitor price.
  const logUnits = (i: number, q: number): number => {
    if (i === size) return Math.log(q) - currentShift
    const point = history[i]
    const level = pastLevel === null || point === undefined ? 0 : pastLevel(point)
    const then = point?.competitorPrice
    return competitor === null || then === undefined || !(then > 0)
      ? Math.log(q) - level
      : Math.log(q) - level - competitor.response * Math.log(then / competitor.price)
  }
  let count = 0
  let weights = 0
  let meanX = 0
  let meanY = 0
  let lowest = Number.POSITIVE_INFINITY
  let highest = 0
  let anchor = 0
  for (let i = 0; i <= size; i++) {
    const p = i < size ? (history[i]?.price ?? 0) : price
    const q = i < size ? (history[i]?.units ?? 0) : units
    if (!usable(p, q)) continue
    const x = Math.log(p)
    const w = countWeight(q) * localWeight(ages[i] ?? 0, x - logPrice)
    anchor += x
    count++
    weights += w
    meanX += w * x
    meanY += w * logUnits(i, q)
    lowest = Math.min(lowest, p)
    highest = Math.max(highest, p)
  }
  if (count < 2 || highest < lowest * minimumSpread) return null
  meanX /= weights
  meanY /= weights
  let sxx = 0
  let sxy = 0
  let lever = 0
  for (let i = 0; i <= size; i++) {
    const p = i < size ? (history[i]?.price ?? 0) : price
    const q = i < size ? (history[i]?.units ?? 0) : units
    if (!usable(p, q)) continue
    const x = Math.log(p)
    const w = countWeight(q) * localWeight(ages[i] ?? 0, x - logPrice)
    const dx = x - meanX
    if (i === size) lever = w * dx
    sxx += w * dx * dx
    sxy += w * dx * (logUnits(i, q) - meanY)
  }
  const slope = sxy / sxx
  let chiSquare = 0
  if (count > 2) {
    for (let i = 0; i <= size; i++) {
      const p = i < size ? (history[i]?.price ?? 0) : price
      const q = i < size ? (history[i]?.units ?? 0) : units
      if (!usable(p, q)) continue
      const x = Math.log(p)
      const residual = logUnits(i, q) - meanY - slope * (x - meanX)
      chiSquare += countWeight(q) * localWeight(ages[i] ?? 0, x - logPrice) * residual * residual
    }
  }
  const inflation = count > 2 ? Math.max(1, chiSquare / (count - 2)) : 1
  return {
    slope,
    variance: inflation / sxx,
    sampleSize: count,
    meanLogPrice: meanX,
    meanLogUnits: meanY,
    anchorLogPrice: anchor / count,
    currentLever: lever / sxx
  }
}
