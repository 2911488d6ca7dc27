import type { PricePoint } from "./Elasticity.ts"
import { demandNoise, type PastLevel, priceChangeAges, recency } from "./ElasticityFit.ts"

/**
 * One item's evidence on how its elasticity changes with the price: the curvature c = de / d ln(price)
 * of its demand curve (ln units = a + e·x + c·x²/2 around the centre of its prices, x = ln price), with
 * its variance. Constant-elasticity demand has c = 0; linear and logit demand have c < 0 (demand grows
 * more elastic as the price rises), which is why an item that was cut becomes less elastic.
 */
export interface CurvatureEvidence {
  readonly curvature: number
  readonly variance: number
  /** d curvature / d y of the current point: a period effect s read off it moves the curvature by −s × currentLever. */
  readonly currentLever: number
}

const usable = (price: number, units: number): boolean =>
  price > 0 && units > 0 && Number.isFinite(price) && Number.isFinite(units)

/**
 * Points with fewer units are too noisy on a log scale to show a bend, and biased: ln of a small count
 * (zeros left out) reads the high prices' demand wrongly, and the fitted curve bends where demand does not.
 */
const minimumUnits = 10

/** Three distinct prices this far apart (max / min) at least: closer ones cannot show a bend. */
const minimumSpread = 1.03

/**
 * Weighted least squares of ln(units) on x and x² (x = ln price, centred) over the item's history and
 * its current point, each point weighing its counting precision times recency^age (no distance kernel:
 * a bend only shows across prices). The current point's ln(units) is read less `currentShift` (its
 * category's period effect). Null with fewer than three usable points or prices within 3 %.
 */
export const curvatureOf = (
  history: ReadonlyArray<PricePoint>,
  price: number,
  units: number,
  currentShift = 0,
  pastLevel: PastLevel | null = null
): CurvatureEvidence | null => {
  const size = history.length
  if (size < 2) return null
  const ages = priceChangeAges(history, price)
  let count = 0
  let s0 = 0
  let mean = 0
  let lowest = Number.POSITIVE_INFINITY
  let highest = 0
  let total = 0
  let fewest = Number.POSITIVE_INFINITY
  for (let i = 0; i <= size; i++) {
    const p = i < size ? (history[i]?.price ?? 0) : price
    const q = i < size ? (history[i]?.units ?? 0) : units
    if (!usable(p, q)) continue
    count++
    total += q
    fewest = Math.min(fewest, q)
    lowest = Math.min(lowest, p)
    highest = Math.max(highest, p)
  }
  if (count < 3 || fewest < minimumUnits || highest < lowest * minimumSpread) return null
  // Every point weighs the counting precision of the item's mean count: a weight taken from each point's
  // own count favours the points that sold more by chance, and bends the fitted curve down.
  const precision = 1 / (count / total + demandNoise)
  for (let i = 0; i <= size; i++) {
    const p = i < size ? (history[i]?.price ?? 0) : price
    const q = i < size ? (history[i]?.units ?? 0) : units
    if (!usable(p, q)) continue
    const w = precision * recency ** (ages[i] ?? 0)
    s0 += w
    mean += w * Math.log(p)
  }
  mean /= s0
  // Normal equations of y = a + b·x + g·x² with Σw·x = 0 (x centred).
  let s2 = 0
  let s3 = 0
  let s4 = 0
  let t0 = 0
  let t1 = 0
  let t2 = 0
  for (let i = 0; i <= size; i++) {
    const p = i < size ? (history[i]?.price ?? 0) : price
    const q = i < size ? (history[i]?.units ?? 0) : units
    if (!usable(p, q)) continue
    const w = precision * recency ** (ages[i] ?? 0)
    const x = Math.log(p) - mean
    const point = history[i]
    const y =
      Math.log(q + 0.5) - (i === size ? currentShift : pastLevel === null || point === undefined ? 0 : pastLevel(point))
    const x2 = x * x
    s2 += w * x2
    s3 += w * x2 * x
    s4 += w * x2 * x2
    t0 += w * y
    t1 += w * x * y
    t2 += w * x2 * y
  }
  // g from the 3×3 system [[s0, 0, s2], [0, s2, s3], [s2, s3, s4]] by Cramer's rule.
  const determinant = s0 * (s2 * s4 - s3 * s3) - s2 * s2 * s2
  if (!(determinant > 0)) return null
  const g = (s0 * (s2 * t2 - s3 * t1) - s2 * s2 * t0) / determinant
  const varianceG = (s0 * s2) / determinant
  // The current point's share of g: its weight times the third row of the inverse, [−s2², −s0·s3, s0·s2] / det.
  const x = Math.log(price) - mean
  const lever = usable(price, units) ? (precision * (s0 * s2 * x * x - s0 * s3 * x - s2 * s2)) / determinant : 0
  return { curvature: 2 * g, variance: 4 * varianceG, currentLever: 2 * lever }
}
