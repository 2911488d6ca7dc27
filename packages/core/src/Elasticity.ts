import { Schema } from "effect"

/**
 * Where a recommendation's price elasticity of demand comes from:
 * - `assumed_zero`: no usable price history (fewer than two observations, prices within 1 % of each other, or an
 *   estimate that is not negative); demand is assumed not to react to the price.
 * - `arc`: exactly two usable observations; the midpoint (arc) elasticity between them.
 * - `log_log`: three or more; the least-squares slope of ln(units) on ln(price).
 */
export const ElasticitySource = Schema.Literals(["assumed_zero", "arc", "log_log"])
export type ElasticitySource = typeof ElasticitySource.Type

/** One observation of the item's past: a price it sold at and the units it sold in a period at that price. */
export interface PricePoint {
  readonly price: number
  readonly units: number
}

export interface ElasticityEstimate {
  /** Rounded to two decimals; the value the impact is computed with and the one the explanation states. */
  readonly elasticity: number
  readonly source: ElasticitySource
  /** The usable observations (positive price and units) the estimate looked at. */
  readonly sampleSize: number
}

/** Prices closer than this (max / min) say nothing about demand: their "elasticity" is noise. */
const minimumSpread = 1.01
/** Steeper estimates are capped: real demand curves rarely pass -5, and a few noisy points can give -1000. */
export const steepestElasticity = -10

const noHistory: ElasticityEstimate = { elasticity: 0, source: "assumed_zero", sampleSize: 0 }
const assumedZero = (sampleSize: number): ElasticityEstimate =>
  sampleSize === 0 ? noHistory : { elasticity: 0, source: "assumed_zero", sampleSize }

const isUsable = (point: PricePoint): boolean =>
  point.price > 0 && point.units > 0 && Number.isFinite(point.price) && Number.isFinite(point.units)

const arcElasticity = (a: PricePoint, b: PricePoint): number =>
  (b.units - a.units) / ((a.units + b.units) / 2) / ((b.price - a.price) / ((a.price + b.price) / 2))

// Two passes (means first, then centred sums) keep the slope accurate for large prices.
const logLogSlope = (history: ReadonlyArray<PricePoint>, count: number): number => {
  let meanX = 0
  let meanY = 0
  for (const point of history) {
    if (!isUsable(point)) continue
    meanX += Math.log(point.price) / count
    meanY += Math.log(point.units) / count
  }
  let sxx = 0
  let sxy = 0
  for (const point of history) {
    if (!isUsable(point)) continue
    const dx = Math.log(point.price) - meanX
    sxx += dx * dx
    sxy += dx * (Math.log(point.units) - meanY)
  }
  return sxx > 1e-12 ? sxy / sxx : Number.NaN
}

/**
 * Estimates how units sold respond to price from the item's price history.
 * A positive or flat estimate is not believed (it usually reflects demand shifts such as promotions or
 * seasons, not the price) and falls back to the assumed zero, keeping its sample size.
 */
export const estimateElasticity = (history: ReadonlyArray<PricePoint>): ElasticityEstimate => {
  if (history.length === 0) return noHistory
  let count = 0
  let first: PricePoint | undefined
  let second: PricePoint | undefined
  let lowest = Number.POSITIVE_INFINITY
  let highest = 0
  for (const point of history) {
    if (!isUsable(point)) continue
    count++
    if (first === undefined) first = point
    else if (second === undefined) second = point
    lowest = Math.min(lowest, point.price)
    highest = Math.max(highest, point.price)
  }
  if (first === undefined || second === undefined || highest < lowest * minimumSpread) return assumedZero(count)
  const source: ElasticitySource = count === 2 ? "arc" : "log_log"
  const raw = count === 2 ? arcElasticity(first, second) : logLogSlope(history, count)
  const elasticity = Math.max(Math.round(raw * 100) / 100, steepestElasticity)
  return elasticity < 0 ? { elasticity, source, sampleSize: count } : assumedZero(count)
}

/**
 * Units expected per period at `newPrice`, with a constant elasticity: units * (newPrice / oldPrice) ^ elasticity.
 * Both estimate kinds use this curve, so a stated elasticity always means the same projection.
 * A zero price on either side has no ratio: the units are kept.
 */
export const projectedUnits = (units: number, oldPrice: number, newPrice: number, elasticity: number): number =>
  elasticity === 0 || oldPrice <= 0 || newPrice <= 0 ? units : units * (newPrice / oldPrice) ** elasticity
