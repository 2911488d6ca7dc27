import { Schema } from "effect"

/**
 * Where a recommendation's price elasticity of demand comes from (see docs/pricing.md, "The estimate"):
 * - `item`: the item's own price history carries at least half the weight of the (shrunk) estimate;
 * - `pooled`: mostly its category's (tag's) or the workspace's pooled estimate;
 * - `prior`: no price history anywhere in the workspace: the policy's `defaultElasticity` (under the
 *   `target_margin` objective, the first version's assumed 0 when the item has no usable history).
 * Recommendations stored before this field had these values were written `assumed_zero` (now `prior`),
 * `arc` and `log_log` (now `item`).
 */
export const ElasticitySource = Schema.Literals(["item", "pooled", "prior"])
export type ElasticitySource = typeof ElasticitySource.Type

/** How the first version's item-only estimate was made; the `target_margin` objective still uses it. */
export type ElasticityMethod = "assumed_zero" | "arc" | "log_log"

/** One observation of the item's past: a price it sold at and the units it sold in a period at that price. */
export interface PricePoint {
  readonly price: number
  readonly units: number
  /** The competitor price while it sold at this price, when known. */
  readonly competitorPrice?: number
  /** The end of the period its units were counted over (epoch ms), when known. */
  readonly at?: number
}

export interface ElasticityEstimate {
  /** Rounded to two decimals; the value the impact is computed with and the one the explanation states. */
  readonly elasticity: number
  /** The 90 % interval, [more negative end, less negative end], rounded outwards to two decimals. */
  readonly low: number
  readonly high: number
  readonly source: ElasticitySource
  /** The usable observations (positive price and units) the item's own estimate looked at. */
  readonly sampleSize: number
  /** Set by the first version's estimator (the `target_margin` objective); null for the pooled estimate. */
  readonly method: ElasticityMethod | null
  /** The tag whose pool the estimate leaned on; null for the workspace's pool, the prior or the item alone. */
  readonly poolTag: string | null
  /**
   * How the elasticity changes with the price, de / d ln(price) (DemandCurvature): 0 for constant
   * elasticity and for the first version's estimate; negative when demand grows more elastic as the price rises.
   */
  readonly curvature: number
  /** The standard deviation of the curvature: its pool's doubt and how far its items bend apart, less the item's own evidence. */
  readonly curvatureSd: number
  /**
   * Set when the units sold since the item's last price change fell outside the 90 % range its evidence
   * before predicted (PredictionCheck): the interval was widened by as much. Null otherwise.
   */
  readonly predictionMiss: PredictionMiss | null
}

/** What the engine predicted for the units at the current price, and what sold (PredictionCheck). */
export interface PredictionMiss {
  /** The 90 % range of the units predicted from the evidence before the last price change. */
  readonly predictedLow: number
  readonly predictedHigh: number
  readonly sold: number
}

/** Prices closer than this (max / min) say nothing about demand: their "elasticity" is noise. */
const minimumSpread = 1.01
/** Steeper estimates are capped: real demand curves rarely pass -5, and a few noisy points can give -1000. */
export const steepestElasticity = -10

const measured = (elasticity: number, method: ElasticityMethod, sampleSize: number): ElasticityEstimate => ({
  elasticity,
  low: elasticity,
  high: elasticity,
  source: method === "assumed_zero" ? "prior" : "item",
  sampleSize,
  method,
  poolTag: null,
  curvature: 0,
  curvatureSd: 0,
  predictionMiss: null
})
const noHistory = measured(0, "assumed_zero", 0)
const assumedZero = (sampleSize: number): ElasticityEstimate =>
  sampleSize === 0 ? noHistory : measured(0, "assumed_zero", sampleSize)

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
 * The first version's estimate (kept for the `target_margin` objective): how units sold respond to
 * price from the item's price history alone, a point without an interval.
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
  const method: ElasticityMethod = count === 2 ? "arc" : "log_log"
  const raw = count === 2 ? arcElasticity(first, second) : logLogSlope(history, count)
  const elasticity = Math.max(Math.round(raw * 100) / 100, steepestElasticity)
  return elasticity < 0 ? measured(elasticity, method, count) : assumedZero(count)
}

/**
 * Units expected per period at `newPrice`, with a constant elasticity: units * (newPrice / oldPrice) ^ elasticity.
 * Both estimate kinds use this curve, so a stated elasticity always means the same projection.
 * A zero price on either side has no ratio: the units are kept.
 */
export const projectedUnits = (units: number, oldPrice: number, newPrice: number, elasticity: number): number =>
  elasticity === 0 || oldPrice <= 0 || newPrice <= 0 ? units : units * (newPrice / oldPrice) ** elasticity
