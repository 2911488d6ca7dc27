import { type CompetitorEffect, competitorEffect, noCompetitorEffect, positionOf } from "./CompetitorEffect.ts"
import { type CurvatureEvidence, curvatureOf as curvatureEvidence } from "./DemandCurvature.ts"
import type { ElasticityEstimate, PricePoint } from "./Elasticity.ts"
import { type ElasticityFit, fitElasticity, type PastLevel } from "./ElasticityFit.ts"
import {
  type LevelEvidence,
  levelEvidence,
  type PeriodChange,
  type PeriodLevel,
  periodAge,
  periodChange,
  periodLevels,
  unexplained
} from "./PeriodEffects.ts"
import { checkPrediction } from "./PredictionCheck.ts"

/**
 * A pooled estimate: what an item of the pool is expected to have, before its own evidence.
 * Its elasticity ~ N(mean, variance + spread): `variance` is the uncertainty of the pool's mean,
 * `spread` how far the pool's items sit from one another (τ²).
 */
export interface Pool {
  /** The mean elasticity at the items' anchors (where their prices have been, ElasticityFit). */
  readonly mean: number
  readonly variance: number
  readonly spread: number
  /**
   * Where an item has a competitor price, its elasticity differs from the pool's by level + slope × ln(price
   * / competitor price): demand that falls off above the competitor is more elastic there (CompetitorEffect).
   */
  readonly competitor: CompetitorEffect
  /** The pool's demand curvature de / d ln(price) (DemandCurvature), shrunk toward 0, and its variance. */
  readonly curvature: number
  readonly curvatureVariance: number
  /**
   * The period effect (PeriodEffects): how much the pool's demand moved, in ln(units), between its items'
   * last price changes and now, beyond what their prices explain; removed from the current period's
   * units before they are read as price response. 0 without evidence.
   */
  readonly shift: number
  readonly shiftVariance: number
  /**
   * The demand level of each past period relative to now (index: periods back; PeriodEffects), from all the
   * pool's items with timed points, whether their price moved or not; a past point is read less its
   * period's level. Empty where the history has no times (then `shift` is the current period's effect).
   */
  readonly levels: ReadonlyArray<PeriodLevel | undefined>
  /**
   * How the pool's demand answers its competitors' prices, d ln units / d ln competitor price (PeriodEffects),
   * read from its items whose competitor price moved since their last price change; 0 without evidence.
   */
  readonly competitorResponse: number
}

/** The workspace's pool (or its prior) and one pool per tag that has items with their own estimate. */
export interface ElasticityPools {
  readonly workspace: Pool
  /** False when no item in the workspace has an estimate of its own: the workspace pool is the prior. */
  readonly hasEvidence: boolean
  readonly byTag: ReadonlyMap<string, Pool>
  /** The newest period end (`at`) of the workspace's histories: period 1 back; null without timed points. */
  readonly reference: number | null
}

/** What pooling reads of an item: its tags and the evidence it brings. */
export interface ElasticityEvidence {
  readonly tags: ReadonlyArray<string>
  readonly price: number
  readonly unitsSold30d: number
  readonly priceHistory: ReadonlyArray<PricePoint>
  readonly competitorPrice: number | null
}

/** How far an item may sit from the prior when nothing is measured: sd 0.5, a 90 % interval of ±0.99 (calibrated). */
const priorSpread = 0.25
/** How uncertain the prior's mean itself is, when a workspace's evidence updates it: sd 1. */
const priorMeanVariance = 1
/**
 * Below this the measured spread of a pool is not believed: sd 0.2. Item fits from a few nearby prices
 * and small counts are weak, and the method of moments then reads a spread near 0 although the items
 * of a category do differ; intervals that narrow held the truth for fewer than half of the moves in
 * the simulated market (docs/pricing.md), and the trust rule's pessimistic end did not protect. With
 * sd 0.2 its harmful moves fell from 6.2 % to about 3 % for a few points less of the oracle's uplift.
 */
const minimumSpread = 0.04
/** A pool's spread is measured from this many items; fewer borrow the wider pool's. */
const itemsForSpread = 3
/** The two-sided 90 % interval. */
const z90 = 1.6448536269514722
/**
 * How much wider than the estimate's standard error the interval is drawn (z = 1.645 × 1.2 = 1.974).
 * Item fits from a few nearby prices and small counts understate their uncertainty, and so do the pools
 * built from them: in the simulated market (docs/pricing.md) the uncalibrated 90 % interval held the
 * true elasticity for only 74-78 % of the adopted moves, and over 10 cycles 6.1 % of the moves were
 * harmful. With 1.2 it holds it for 81-87 % and 4.3 % are harmful (seeds 7 and 28), for about 2 points
 * less of the oracle's uplift (89 % instead of 91 %). Measured against 1.15 (5.1 % harmful over 10
 * cycles of seed 1), 1.25 and 1.35 (85-91 %, but 2 more points of uplift lost).
 */
const intervalCalibration = 1.2
export const steepest = -10

interface Measurement {
  readonly value: number
  readonly variance: number
}

interface Pooled {
  readonly mean: number
  readonly variance: number
}

/**
 * Random-effects meta-analysis (DerSimonian–Laird) of measurements: the spread τ² by the method of
 * moments, at least `floor` (or `fallbackSpread` with fewer than three), then the mean weighted by 1 / (v + τ²).
 */
const metaAnalyse = (
  measurements: ReadonlyArray<Measurement>,
  fallbackSpread: number,
  floor = minimumSpread
): (Pooled & { readonly spread: number }) | null => {
  if (measurements.length === 0) return null
  let spread = fallbackSpread
  if (measurements.length >= itemsForSpread) {
    let w = 0
    let w2 = 0
    let wb = 0
    for (const m of measurements) {
      const u = 1 / m.variance
      w += u
      w2 += u * u
      wb += u * m.value
    }
    const fixed = wb / w
    let q = 0
    for (const m of measurements) q += ((m.value - fixed) * (m.value - fixed)) / m.variance
    const denominator = w - w2 / w
    spread = Math.max(floor, denominator > 0 ? (q - (measurements.length - 1)) / denominator : fallbackSpread)
  }
  let precision = 0
  let weighted = 0
  for (const m of measurements) {
    const u = 1 / (m.variance + spread)
    precision += u
    weighted += u * m.value
  }
  return { mean: weighted / precision, variance: 1 / precision, spread }
}

/** A mean, shrunk toward a wider one's prediction for it (normal-normal update). */
const shrinkToward = <A extends Pooled>(own: A, wider: Pooled): A => {
  const precision = 1 / own.variance + 1 / wider.variance
  return { ...own, mean: (own.mean / own.variance + wider.mean / wider.variance) / precision, variance: 1 / precision }
}

/** The pooled mean of some measurements, shrunk toward `wider`; `wider` itself without any. */
const pooledToward = (measurements: ReadonlyArray<Measurement>, wider: Pooled, floor: number): Pooled => {
  const measured = metaAnalyse(measurements, wider.variance, floor)
  return measured === null ? wider : shrinkToward(measured, wider)
}

/**
 * The curvature a workspace is believed to have before its evidence: none (constant elasticity), with
 * sd 5: a linear demand curve at elasticity −3 has −12, a logit one −9.
 */
const priorCurvature: Pooled = { mean: 0, variance: 25 }
/** Items differ in curvature (linear, logit, constant elasticity): its spread is not floored. */
const minimumCurvatureSpread = 0
/**
 * How far an item's curvature strays from its pool's, as a share of it (sd): linear and logit items of one
 * category at elasticity e bend by e − e² and e − e²·q / (1 − q), q the share of shoppers who buy (−12 and
 * −5 to −24 at e = −3). The items' curvature evidence is too noisy to measure that spread (it read sd 0 on
 * bending demand and sd 30 with seasons on), so it is set: 0.75 of the pool's (tuned on the simulated
 * market's seeds 1-5: 0.5 left 10 % of the moves on bending demand harmful, 1 cost 4 more points of
 * uplift). A pool that does not bend (constant elasticity) has none.
 */
const curvatureSpreadShare = 0.75
/**
 * The period effect a pool is believed to have before its evidence: none, sd 0.3 (a season of ±35 %).
 * Items share their category's period effect: their differences are counting noise, no spread is assumed.
 */
const priorShift: Pooled = { mean: 0, variance: 0.09 }
const minimumShiftSpread = 0
/**
 * The competitor response believed before evidence: none, sd 1 (demand that falls off above the competitor
 * answers a 10 % competitor cut with about 10 % fewer units: a response near 1).
 */
const priorResponse: Pooled = { mean: 0, variance: 1 }
/** A competitor price that moved less than this (log) since the item's last price change counts as unmoved. */
const competitorMove = 0.005

/** A fit's slope carried from the centre of its weights to its anchor along the curvature. */
const atAnchor = (fit: ElasticityFit, curvature: Pooled): Measurement => {
  const distance = fit.anchorLogPrice - fit.meanLogPrice
  return {
    value: fit.slope + curvature.mean * distance,
    variance: fit.variance + distance * distance * curvature.variance
  }
}

/** The pools of a workspace without any price history: the policy's prior alone. */
export const priorPools = (defaultElasticity: number): ElasticityPools => {
  if (defaultElasticity !== lastPrior.workspace.mean) lastPrior = makePriorPools(defaultElasticity)
  return lastPrior
}

const makePriorPools = (defaultElasticity: number): ElasticityPools => ({
  workspace: {
    mean: defaultElasticity,
    competitor: noCompetitorEffect,
    variance: 0,
    spread: priorSpread,
    curvature: 0,
    curvatureVariance: 0,
    shift: 0,
    shiftVariance: 0,
    levels: [],
    competitorResponse: 0
  },
  hasEvidence: false,
  byTag: new Map(),
  reference: null
})
// Items priced without pools (analyseItem's default) share one: no allocation per item.
let lastPrior = makePriorPools(-1.5)

/**
 * One item's evidence for pooling: its own fit, its curvature evidence (null when its prices cannot show
 * one), its change since its last price change (null without one) and the tags it pools under.
 */
export interface TaggedFit {
  readonly tags: ReadonlyArray<string>
  /** ln(price / competitor price) now; null without a competitor price. */
  readonly competitorPosition: number | null
  readonly fit: ElasticityFit
  readonly curvature: CurvatureEvidence | null
  readonly change: PeriodChange | null
  /** What the item brought: the fits above are refitted from it once the period levels are known. */
  readonly evidence: ElasticityEvidence
}

/** The fits of the items that have one (items without a usable history bring no evidence). */
export const taggedFits = (items: Iterable<ElasticityEvidence>): Array<TaggedFit> => {
  const fits: Array<TaggedFit> = []
  for (const item of items) {
    const fit = fitElasticity(item.priceHistory, item.price, item.unitsSold30d)
    if (fit !== null)
      fits.push({
        tags: item.tags,
        competitorPosition: positionOf(item.price, item.competitorPrice),
        fit,
        curvature: curvatureEvidence(item.priceHistory, item.price, item.unitsSold30d),
        change: periodChange(item.priceHistory, item.price, item.unitsSold30d, item.competitorPrice),
        evidence: item
      })
  }
  return fits
}

// Sums in a fixed order, so that the pools do not depend on the order the items came in.
// Every field an item brings counts, so that items alike in their fit still sum in one order.
const byFit = (a: TaggedFit, b: TaggedFit): number =>
  a.fit.slope - b.fit.slope ||
  a.fit.variance - b.fit.variance ||
  a.fit.sampleSize - b.fit.sampleSize ||
  a.fit.meanLogPrice - b.fit.meanLogPrice ||
  a.fit.anchorLogPrice - b.fit.anchorLogPrice ||
  a.fit.currentLever - b.fit.currentLever ||
  (a.competitorPosition ?? 0) - (b.competitorPosition ?? 0) ||
  Number(a.competitorPosition === null) - Number(b.competitorPosition === null) ||
  (a.curvature?.curvature ?? 0) - (b.curvature?.curvature ?? 0) ||
  (a.curvature?.variance ?? 0) - (b.curvature?.variance ?? 0) ||
  (a.change?.logUnitsChange ?? 0) - (b.change?.logUnitsChange ?? 0) ||
  (a.change?.logPriceChange ?? 0) - (b.change?.logPriceChange ?? 0) ||
  (a.change?.logCompetitorChange ?? 0) - (b.change?.logCompetitorChange ?? 0) ||
  (a.change?.previous?.slope ?? 0) - (b.change?.previous?.slope ?? 0) ||
  (a.change?.previous?.variance ?? 0) - (b.change?.previous?.variance ?? 0) ||
  (a.change?.variance ?? 0) - (b.change?.variance ?? 0) ||
  (a.change?.lastPrice ?? 0) - (b.change?.lastPrice ?? 0) ||
  compareTags(a.tags, b.tags)

const compareTags = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number => {
  const left = a.join("\u0000")
  const right = b.join("\u0000")
  return left < right ? -1 : left > right ? 1 : 0
}

const noShift: Pooled = { mean: 0, variance: 0 }

/**
 * Pools from the items' fits (`slopeOf` reads each item's slope, `shiftOf` its pool's period effect): the
 * workspace pool (its mean shrunk toward the prior) and one per tag (shrunk toward the workspace's).
 */
const buildPools = (
  items: ReadonlyArray<TaggedFit>,
  defaultElasticity: number,
  fitOf: (item: TaggedFit) => ElasticityFit | null,
  curvatureOf: (item: TaggedFit) => CurvatureEvidence | null,
  shiftOf: (tag: string | null) => Pooled,
  responseOf: (tag: string | null) => number,
  levelsOf: (tag: string | null) => ReadonlyArray<PeriodLevel | undefined> = () => [],
  reference: number | null = null
): ElasticityPools => {
  const tagged = new Map<string, Array<TaggedFit>>()
  for (const item of items) {
    for (const tag of item.tags) {
      const list = tagged.get(tag)
      if (list === undefined) tagged.set(tag, [item])
      else list.push(item)
    }
  }
  const pool = (
    members: ReadonlyArray<TaggedFit>,
    fallbackSpread: number,
    wider: Pooled,
    widerCurvature: Pooled,
    shift: Pooled,
    competitorResponse: number,
    levels: ReadonlyArray<PeriodLevel | undefined>
  ): Pool | null => {
    const curvature = pooledToward(
      members.flatMap((item) => {
        const evidence = curvatureOf(item)
        return evidence === null ? [] : [{ value: evidence.curvature, variance: evidence.variance }]
      }),
      widerCurvature,
      minimumCurvatureSpread
    )
    const positioned: Array<{ readonly m: Measurement; readonly position: number }> = []
    const measured = metaAnalyse(
      members.flatMap((item) => {
        const fit = fitOf(item)
        if (fit === null) return []
        const m = atAnchor(fit, curvature)
        if (item.competitorPosition !== null) positioned.push({ m, position: item.competitorPosition })
        return [m]
      }),
      fallbackSpread
    )
    return measured === null
      ? null
      : {
          ...shrinkToward(measured, wider),
          competitor: competitorEffect(positioned, measured.mean, measured.spread),
          curvature: curvature.mean,
          curvatureVariance: curvature.variance,
          shift: shift.mean,
          shiftVariance: shift.variance,
          levels,
          competitorResponse
        }
  }
  const workspace = pool(
    items,
    priorSpread,
    { mean: defaultElasticity, variance: priorMeanVariance },
    priorCurvature,
    shiftOf(null),
    responseOf(null),
    levelsOf(null)
  )
  if (workspace === null) return priorPools(defaultElasticity)
  const byTag = new Map<string, Pool>()
  for (const tag of [...tagged.keys()].sort()) {
    const own = pool(
      tagged.get(tag) ?? [],
      workspace.spread,
      { mean: workspace.mean, variance: workspace.variance + workspace.spread },
      { mean: workspace.curvature, variance: workspace.curvatureVariance },
      shiftOf(tag),
      responseOf(tag),
      levelsOf(tag)
    )
    if (own !== null) byTag.set(tag, own)
  }
  return { workspace, hasEvidence: true, byTag, reference }
}

/** Adds a measurement to the workspace's list (key null) and each of `tags`'. */
const add = <A>(into: Map<string | null, Array<A>>, tags: ReadonlyArray<string>, m: A) => {
  for (const key of [null, ...tags]) {
    const list = into.get(key)
    if (list === undefined) into.set(key, [m])
    else list.push(m)
  }
}

/** The competitor response of each pool from its items' measurements: the workspace's shrunk toward none, a tag's toward it. */
const responsesOf = (responses: ReadonlyMap<string | null, ReadonlyArray<Measurement>>) => {
  const workspaceResponse = pooledToward(responses.get(null) ?? [], priorResponse, minimumShiftSpread)
  return (tag: string | null): number =>
    tag === null
      ? workspaceResponse.mean
      : pooledToward(responses.get(tag) ?? [], { mean: workspaceResponse.mean, variance: priorResponse.variance }, 0)
          .mean
}

/** The newest period end (`at`) in the items' histories; null when none has a time. */
const newestPeriod = (items: ReadonlyArray<TaggedFit>): number | null => {
  let newest: number | null = null
  for (const item of items)
    for (const point of item.evidence.priceHistory)
      if (point.at !== undefined && (newest === null || point.at > newest)) newest = point.at
  return newest
}

const hasTimes = (history: ReadonlyArray<PricePoint>): boolean => history.some((point) => point.at !== undefined)

/** A past point's period level under a pool's levels (0 for a point without a time, or a period without a level). */
export const pastLevelOf =
  (levels: ReadonlyArray<PeriodLevel | undefined>, reference: number) =>
  (point: PricePoint): number =>
    point.at === undefined ? 0 : (levels[periodAge(point.at, reference)]?.level ?? 0)

/**
 * The pools of a workspace whose histories say when (`at`) their units were sold, after the history-only
 * pools (`before`):
 * 1. each pool's period levels (PeriodEffects.periodLevels) from every item with timed points, price moved or
 *    not, each point read less its price's part under `before` (the pool's elasticity and curvature);
 * 2. the competitor response from the items whose competitor price moved since their last price change:
 *    their unexplained change less the change of level, over the competitor's log-change;
 * 3. the pools from the items' fits and curvatures refitted with every past point read less its period's level.
 */
/**
 * A category's levels are read off its points only when one of them reaches this (in ln units, about 6 %):
 * in a market without seasons the levels measured stay within ±0.05, and what they hold then is the price
 * response misread under the pool's elasticity where the engine moved a category's items mostly one way
 * (docs/pricing.md, "Periods for every item").
 */
const materialLevel = 0.06

const timedPools = (
  sorted: ReadonlyArray<TaggedFit>,
  before: ElasticityPools,
  reference: number,
  defaultElasticity: number
): ElasticityPools => {
  const evidence = new Map<string | null, Array<LevelEvidence>>()
  for (const item of sorted) {
    const { pool } = poolOf(item.tags, before)
    const anchor = item.fit.anchorLogPrice
    const e = pool.mean
    const c = pool.curvature
    const { priceHistory, price, unitsSold30d } = item.evidence
    const found = levelEvidence(priceHistory, price, unitsSold30d, reference, (logPrice) => {
      const x = logPrice - anchor
      return x * (e + (c * x) / 2)
    })
    if (found !== null) add(evidence, item.tags, found)
  }
  const levels = new Map<string | null, ReadonlyArray<PeriodLevel | undefined>>()
  for (const [tag, list] of evidence) {
    const found = periodLevels(list)
    levels.set(tag, found.some((level) => level !== undefined && Math.abs(level.level) >= materialLevel) ? found : [])
  }
  const levelsOf = (tag: string | null) => levels.get(tag) ?? levels.get(null) ?? []
  const pastLevelFor = (item: TaggedFit) => pastLevelOf(levelsOf(poolOf(item.tags, before).tag), reference)
  const responses = new Map<string | null, Array<Measurement>>()
  for (const item of sorted) {
    const change = item.change
    const competitor = change?.logCompetitorChange ?? 0
    if (change === null || Math.abs(competitor) < competitorMove) continue
    const { pool } = poolOf(item.tags, before)
    const earlier = combine(change.previous, pool, change.lastPrice, null)
    const residual = unexplained(change, earlier.mean, earlier.variance, pool.curvature)
    add(responses, item.tags, {
      value: (residual.value + pastLevelFor(item)(change.last)) / competitor,
      variance: residual.variance / (competitor * competitor)
    })
  }
  const refits = new Map<TaggedFit, { fit: ElasticityFit | null; curvature: CurvatureEvidence | null }>()
  const refit = (item: TaggedFit) => {
    const known = refits.get(item)
    if (known !== undefined) return known
    const { priceHistory, price, unitsSold30d } = item.evidence
    const level = pastLevelFor(item)
    const found = hasTimes(priceHistory)
      ? {
          fit: fitElasticity(priceHistory, price, unitsSold30d, 0, null, level),
          curvature: curvatureEvidence(priceHistory, price, unitsSold30d, 0, level)
        }
      : { fit: item.fit, curvature: item.curvature }
    refits.set(item, found)
    return found
  }
  return buildPools(
    sorted,
    defaultElasticity,
    (item) => refit(item).fit,
    (item) => refit(item).curvature,
    () => noShift,
    responsesOf(responses),
    levelsOf,
    reference
  )
}

/**
 * Empirical Bayes pools from the items' evidence, in three steps, deterministic whatever the order:
 * 1. pools from the items' fits as they stood before the current period (their history alone), which no
 *    period effect of now can have bent;
 * 2. each pool's period effect (PeriodEffects): the mean, over its items with a price change, of the part
 *    of their units' change since then that those pools' elasticities do not explain, shrunk toward none;
 * 3. the pools from the items' fits with the current period's units read less that effect.
 * When the histories say when their units were sold, step 2 is a period level per past period instead (timedPools).
 */
export const poolsFromFits = (fits: ReadonlyArray<TaggedFit>, defaultElasticity: number): ElasticityPools => {
  const sorted = fits.toSorted(byFit)
  if (sorted.length === 0) return priorPools(defaultElasticity)
  const before = buildPools(
    sorted,
    defaultElasticity,
    (item) => item.change?.previous ?? null,
    (item) => item.change?.previousCurvature ?? null,
    () => noShift,
    () => 0
  )
  const reference = newestPeriod(sorted)
  if (reference !== null) return timedPools(sorted, before, reference, defaultElasticity)
  // The period effect from the items whose competitor price did not move; then the competitor response from
  // those whose did, less the period effect: the slope of their unexplained change on the competitor's.
  const residuals = new Map<string | null, Array<Measurement>>()
  const responses = new Map<string | null, Array<Measurement>>()
  const explained: Array<{ readonly item: TaggedFit; readonly residual: Measurement; readonly competitor: number }> = []
  for (const item of sorted) {
    const change = item.change
    if (change === null) continue
    const { pool } = poolOf(item.tags, before)
    const earlier = combine(change.previous, pool, change.lastPrice, null)
    const residual = unexplained(change, earlier.mean, earlier.variance, pool.curvature)
    const competitor = change.logCompetitorChange ?? 0
    if (Math.abs(competitor) < competitorMove) add(residuals, item.tags, residual)
    else explained.push({ item, residual, competitor })
  }
  const workspaceShift = pooledToward(residuals.get(null) ?? [], priorShift, minimumShiftSpread)
  const shifts = new Map<string | null, Pooled>([[null, workspaceShift]])
  for (const [tag, list] of residuals)
    if (tag !== null)
      shifts.set(
        tag,
        pooledToward(list, { mean: workspaceShift.mean, variance: priorShift.variance }, minimumShiftSpread)
      )
  const shiftOf = (tag: string | null): Pooled => shifts.get(tag) ?? workspaceShift
  for (const { item, residual, competitor } of explained) {
    const s = shiftOf(poolOf(item.tags, before).tag).mean
    add(responses, item.tags, {
      value: (residual.value - s) / competitor,
      variance: residual.variance / (competitor * competitor)
    })
  }
  const responseOf = responsesOf(responses)
  const shiftFor = (item: TaggedFit): number => shiftOf(poolOf(item.tags, before).tag).mean
  return buildPools(
    sorted,
    defaultElasticity,
    (item) => {
      const s = shiftFor(item)
      return s === 0 ? item.fit : { ...item.fit, slope: item.fit.slope - s * item.fit.currentLever }
    },
    (item) => {
      const s = shiftFor(item)
      const evidence = item.curvature
      return s === 0 || evidence === null
        ? evidence
        : { ...evidence, curvature: evidence.curvature - s * evidence.currentLever }
    },
    shiftOf,
    responseOf
  )
}

/** The pools of a set of items (a catalog, or the part of it with a price history). */
export const elasticityPools = (items: Iterable<ElasticityEvidence>, defaultElasticity: number): ElasticityPools =>
  poolsFromFits(taggedFits(items), defaultElasticity)

const round2 = (x: number): number => Math.round(x * 100) / 100 + 0
const bound = (x: number): number => Math.min(0, Math.max(steepest, x)) + 0 // + 0 turns -0 into 0

/** The pool an item leans on: its best-informed tag's (the smallest variance; ties by tag), else the workspace's. */
export const poolOf = (
  tags: ReadonlyArray<string>,
  pools: ElasticityPools
): { readonly pool: Pool; readonly tag: string | null } => {
  let pool = pools.workspace
  let poolTag: string | null = null
  for (const tag of tags) {
    const candidate = pools.byTag.get(tag)
    if (
      candidate !== undefined &&
      (poolTag === null ||
        candidate.variance < pool.variance ||
        (candidate.variance === pool.variance && tag < poolTag))
    ) {
      pool = candidate
      poolTag = tag
    }
  }
  return { pool, tag: poolTag }
}

/**
 * An item's elasticity at `price` (mean and variance, unrounded): its pool's (at the item's anchor) and its
 * own fit's (at the centre of its weights), both carried to `price` along the pool's curvature and combined,
 * each weighted by its precision, so that the less evidence the item has the closer it stays to the pool.
 */
const combine = (
  fit: ElasticityFit | null,
  pool: Pool,
  price: number,
  competitorPrice: number | null,
  curve: Pooled = { mean: pool.curvature, variance: pool.curvatureVariance }
): { readonly mean: number; readonly variance: number; readonly ownShare: number } => {
  const here = Math.log(price)
  const c = curve.mean
  const position = positionOf(price, competitorPrice)
  const offset = position === null ? 0 : pool.competitor.level + pool.competitor.slope * position
  const carried = fit === null ? 0 : here - fit.anchorLogPrice
  const prior = offset + pool.mean + c * carried
  // The pool describes the item where its prices have been; carried from there to now along a curvature the
  // item may not share (curve.variance: an item's, not the pool mean's), the further the wider. Without this
  // the interval of an item that moved far from its anchor held the truth for about 60 % of the moves on
  // bending demand (docs/pricing.md).
  const priorVariance = pool.variance + pool.spread + carried * carried * curve.variance
  if (fit === null) return { mean: prior, variance: priorVariance, ownShare: 0 }
  const distance = here - fit.meanLogPrice
  const own = fit.slope + c * distance
  const ownVariance = fit.variance + distance * distance * pool.curvatureVariance
  const precision = 1 / priorVariance + 1 / ownVariance
  return {
    mean: (prior / priorVariance + own / ownVariance) / precision,
    variance: 1 / precision,
    ownShare: 1 / ownVariance / precision
  }
}

/** What an item is priced from: its price now, its units in the last 30 days, its history and its tags. */
export interface EstimateInput {
  readonly price: number
  readonly unitsSold30d: number
  readonly priceHistory: ReadonlyArray<PricePoint>
  readonly tags: ReadonlyArray<string>
  readonly competitorPrice: number | null
}

/**
 * One item's elasticity under the pools: its own local fit (ElasticityFit, with its pool's period effect
 * removed from the current period's units) combined with its pool (see combine). Then the check of the last
 * prediction (PredictionCheck): when the units sold since its last price change fall outside what its
 * evidence before predicted, the interval is widened by as much. The interval is the 90 % interval of the
 * result. A positive point is not believed (promotions and seasons, not the price): points stop at 0, and at −10.
 */
export const estimateItem = (item: EstimateInput, pools: ElasticityPools): ElasticityEstimate => {
  const { pool, tag } = poolOf(item.tags, pools)
  const competitor =
    item.competitorPrice === null || pool.competitorResponse === 0
      ? null
      : { price: item.competitorPrice, response: pool.competitorResponse }
  // With timed points, each past point is read less its period's level; without, the current one less the period effect.
  const timed = pools.reference !== null && pool.levels.length > 0 ? pools.reference : null
  const pastLevel = timed === null ? null : pastLevelOf(pool.levels, timed)
  const fit = fitElasticity(
    item.priceHistory,
    item.price,
    item.unitsSold30d,
    pastLevel === null ? pool.shift : 0,
    competitor,
    pastLevel
  )
  const curve = itemCurvature(item, pool, pastLevel)
  const estimate = combine(fit, pool, item.price, item.competitorPrice, curve)
  const change = pools.hasEvidence
    ? periodChange(item.priceHistory, item.price, item.unitsSold30d, item.competitorPrice)
    : null
  const check =
    change === null
      ? null
      : checkPrediction(
          change,
          combine(change.previous, pool, change.lastPrice, item.competitorPrice),
          timed === null ? pool : { ...pool, ...levelChange(pool.levels, timed, change.last) }
        )
  return toEstimate(
    estimate.mean,
    estimate.variance * (check?.widening ?? 1),
    fit === null ? 0 : fit.sampleSize,
    !pools.hasEvidence ? "prior" : estimate.ownShare >= 0.5 ? "item" : "pooled",
    tag,
    curve,
    check?.miss ?? null
  )
}

/**
 * An item's curvature: its pool's, with the variance of an item's around it (the pool mean's variance and
 * the items' spread, curvatureSpreadShare), combined by precision with its own where its prices show a bend
 * (DemandCurvature, its pool's period effect removed, or each point's period level when the history is timed): linear and logit items of one category bend
 * differently, and an item that has moved across enough prices says which it is.
 */
const itemCurvature = (item: EstimateInput, pool: Pool, pastLevel: PastLevel | null): Pooled => {
  const spread = curvatureSpreadShare * pool.curvature
  const pooled = { mean: pool.curvature, variance: pool.curvatureVariance + spread * spread }
  if (!(pooled.variance > 0)) return pooled
  const own =
    pastLevel === null
      ? curvatureEvidence(item.priceHistory, item.price, item.unitsSold30d, pool.shift)
      : curvatureEvidence(item.priceHistory, item.price, item.unitsSold30d, 0, pastLevel)
  if (own === null || !(own.variance > 0)) return pooled
  return shrinkToward({ mean: own.curvature, variance: own.variance }, pooled)
}

/** The change of level from a past point's period to now (the prediction check's expected shift), and its variance. */
const levelChange = (
  levels: ReadonlyArray<PeriodLevel | undefined>,
  reference: number,
  point: PricePoint
): { readonly shift: number; readonly shiftVariance: number } => {
  const level = point.at === undefined ? undefined : levels[periodAge(point.at, reference)]
  return level === undefined
    ? { shift: 0, shiftVariance: priorShift.variance }
    : { shift: -level.level, shiftVariance: level.variance }
}

/** estimateItem's figures for an item whose fit (or none) is already known, without the prediction check. */
export const estimateWithPools = (
  fit: ElasticityFit | null,
  tags: ReadonlyArray<string>,
  pools: ElasticityPools,
  price: number
): ElasticityEstimate => {
  const { pool, tag } = poolOf(tags, pools)
  const estimate = combine(fit, pool, price, null)
  return toEstimate(
    estimate.mean,
    estimate.variance,
    fit?.sampleSize ?? 0,
    !pools.hasEvidence ? "prior" : estimate.ownShare >= 0.5 ? "item" : "pooled",
    tag,
    { mean: pool.curvature, variance: pool.curvatureVariance },
    null
  )
}

const toEstimate = (
  mean: number,
  variance: number,
  sampleSize: number,
  source: ElasticityEstimate["source"],
  tag: string | null,
  curvature: Pooled,
  miss: ElasticityEstimate["predictionMiss"]
): ElasticityEstimate => {
  // The prior's interval too: were it narrower, an item's first fit could widen its interval.
  const half = z90 * intervalCalibration * Math.sqrt(variance)
  const elasticity = round2(bound(mean))
  // The interval is not cut at 0 or −10 (that would hide how uncertain it is), but always holds the point.
  return {
    elasticity,
    low: Math.min(elasticity, Math.floor((mean - half) * 100) / 100) + 0,
    high: Math.max(elasticity, Math.ceil((mean + half) * 100) / 100) + 0,
    source,
    sampleSize,
    method: null,
    poolTag: source === "pooled" ? tag : null,
    curvature: curvature.mean,
    curvatureSd: Math.sqrt(curvature.variance),
    predictionMiss: miss
  }
}
