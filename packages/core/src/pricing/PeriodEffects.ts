import { type CurvatureEvidence, curvatureOf } from "./DemandCurvature.ts"
import type { PricePoint } from "./Elasticity.ts"
import { demandNoise, type ElasticityFit, fitElasticity } from "./ElasticityFit.ts"

/** A sales period: `units_sold_30d` counts 30 days (the catalog's PriceHistory.periodMs). */
export const periodMs = 30 * 86_400_000

/**
 * What an item says about its category's period effect: how its demand moved between its last price
 * change and now. Its units went from `lastUnits` at `lastPrice` (the newest point of its price history)
 * to `units` at `price` now; part of that is the price (what its evidence before predicted, `previous`),
 * the rest is what moved its category's demand meanwhile: season, trend, a promotion elsewhere.
 */
export interface PeriodChange {
  /** The point the change is measured from: the newest at another price than the current one. */
  readonly last: PricePoint
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

/**
 * The change since the last price change of an item with a price history: from the newest point at another
 * price (the points after it, one per period at the current price, sold at the price of now) to now. Null
 * without one or without sales.
 */
export const periodChange = (
  history: ReadonlyArray<PricePoint>,
  price: number,
  units: number,
  competitorPrice: number | null
): PeriodChange | null => {
  let index = history.length - 1
  while (index >= 0 && history[index]?.price === price) index--
  const last = history[index]
  if (last === undefined || !(last.price > 0) || !(price > 0)) return null
  if (last.units <= 0 && units <= 0) return null
  const mean = (last.units + units) / 2
  const before = history.slice(0, index)
  return {
    last,
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

/** A period's demand level relative to now, in ln(units), and its variance. */
export interface PeriodLevel {
  readonly level: number
  readonly variance: number
}

/**
 * How many periods back a point with `at` was sold, the current period being 0: the newest recorded period
 * of the workspace (`reference`) is the one before the current units (an import records the outgoing
 * period when the next arrives, PriceHistory), so it is 1.
 */
export const periodAge = (at: number, reference: number): number => Math.round((reference - at) / periodMs) + 1

/** Levels this many periods back at most are estimated: the history holds two years. */
export const maxPeriodAge = 24

/** What one item brings to its category's period levels: its points with their period and price response removed. */
export interface LevelEvidence {
  /** The item's periods (0: now) and ln(units + ½) less the price's part, one per period. */
  readonly ages: ReadonlyArray<number>
  readonly values: ReadonlyArray<number>
  /** Its counting precision: 1 / (1/mean count + demand noise). */
  readonly weight: number
}

/** Items that sell fewer units than this a period say little about a level on a log scale, and biased. */
const minimumMeanUnits = 3

/**
 * An item's evidence of its category's period levels: its timed points (`at`) and its current point, each
 * ln(units + ½) less the price's part `response(ln price)`. Null with fewer than two periods or too few sales.
 */
export const levelEvidence = (
  history: ReadonlyArray<PricePoint>,
  price: number,
  units: number,
  reference: number,
  response: (logPrice: number) => number
): LevelEvidence | null => {
  const ages: Array<number> = []
  const values: Array<number> = []
  const seen = new Set<number>()
  let total = 0
  for (let i = history.length - 1; i >= -1; i--) {
    const point = i < 0 ? { price, units, at: undefined } : history[i]
    if (point === undefined || !(point.price > 0)) continue
    const age = i < 0 ? 0 : point.at === undefined ? -1 : periodAge(point.at, reference)
    if (age < 0 || age > maxPeriodAge || seen.has(age)) continue
    seen.add(age)
    ages.push(age)
    values.push(logCount(point.units) - response(Math.log(point.price)))
    total += point.units
  }
  if (ages.length < 2 || !seen.has(0)) return null
  const mean = total / ages.length
  if (mean < minimumMeanUnits) return null
  return { ages, values, weight: 1 / (1 / (mean + 0.5) + demandNoise) }
}

/** The levels' prior: none, sd 0.3 (a season of ±35 %), as for the current period's effect. */
const levelPrior = 0.09
const sweeps = 30

/**
 * The period levels of a group of items (a category): a two-way fixed-effect model,
 * value_it = item level a_i + period level s_t (s_0 = 0, now), fitted by weighted least squares in
 * alternating sweeps (each item's level given the periods', then each period's given the items'). Items
 * whose price never moved say the most: their values differ only by the periods. A level's variance is its
 * counting precision's inverse plus the current period's (it is read against it); each level is shrunk
 * toward none by its prior. Index = periods back; undefined where no item has a point.
 */
export const periodLevels = (items: ReadonlyArray<LevelEvidence>): Array<PeriodLevel | undefined> => {
  let top = 0
  for (const item of items) for (const age of item.ages) top = Math.max(top, age)
  const levels = new Array<number>(top + 1).fill(0)
  const precision = new Array<number>(top + 1).fill(0)
  for (const item of items) for (const age of item.ages) precision[age] = (precision[age] ?? 0) + item.weight
  const itemLevels = items.map((item) => item.values.reduce((sum, value) => sum + value, 0) / item.values.length)
  const sums = new Array<number>(top + 1)
  for (let sweep = 0; sweep < sweeps; sweep++) {
    sums.fill(0)
    items.forEach((item, n) => {
      const a = itemLevels[n] ?? 0
      item.ages.forEach((age, k) => {
        sums[age] = (sums[age] ?? 0) + item.weight * ((item.values[k] ?? 0) - a)
      })
    })
    const now = (sums[0] ?? 0) / (precision[0] || 1)
    for (let age = 1; age <= top; age++)
      levels[age] = precision[age] ? (sums[age] ?? 0) / (precision[age] ?? 1) - now : 0
    items.forEach((item, n) => {
      let sum = 0
      item.ages.forEach((age, k) => {
        sum += (item.values[k] ?? 0) - (levels[age] ?? 0)
      })
      itemLevels[n] = sum / item.ages.length
    })
  }
  const nowVariance = precision[0] ? 1 / (precision[0] ?? 1) : levelPrior
  return levels.map((level, age) => {
    const p = precision[age] ?? 0
    if (age === 0) return { level: 0, variance: 0 }
    if (p === 0) return undefined
    const variance = 1 / p + nowVariance
    const shrink = levelPrior / (levelPrior + variance)
    return { level: level * shrink, variance: variance * shrink }
  })
}
