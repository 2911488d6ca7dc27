/**
 * How an item's competitor price changes its elasticity: demand that falls off above the competitor's price
 * is more elastic there, and less below it. Within a pool, the items with a competitor price differ from the
 * pool's elasticity by level + slope × z, z = ln(price / competitor price): a weighted least-squares line
 * through their differences, each coefficient shrunk toward 0 (ridge, prior sd 1).
 */
export interface CompetitorEffect {
  readonly level: number
  readonly slope: number
}

export const noCompetitorEffect: CompetitorEffect = { level: 0, slope: 0 }

/** ln(price / competitor price); null without a competitor price (or a zero price on either side). */
export const positionOf = (price: number, competitorPrice: number | null): number | null =>
  competitorPrice === null || !(competitorPrice > 0) || !(price > 0) ? null : Math.log(price / competitorPrice)

/** The ridge's prior precision for each coefficient: sd 1. */
const ridge = 1

/**
 * The line through the pool's items with a competitor price: `m.value` is an item's elasticity (at its
 * anchor) with its variance, `position` its z; `mean` the pool's elasticity and `spread` its τ².
 * Solves the 2 × 2 normal equations of (value − mean) = level + slope × z, weights 1 / (variance + spread),
 * plus `ridge` on each diagonal.
 */
export const competitorEffect = (
  items: ReadonlyArray<{
    readonly m: { readonly value: number; readonly variance: number }
    readonly position: number
  }>,
  mean: number,
  spread: number
): CompetitorEffect => {
  if (items.length === 0) return noCompetitorEffect
  let s0 = ridge
  let s1 = 0
  let s2 = ridge
  let t0 = 0
  let t1 = 0
  for (const { m, position } of items) {
    const w = 1 / (m.variance + spread)
    const r = m.value - mean
    s0 += w
    s1 += w * position
    s2 += w * position * position
    t0 += w * r
    t1 += w * position * r
  }
  const determinant = s0 * s2 - s1 * s1
  return { level: (s2 * t0 - s1 * t1) / determinant, slope: (s0 * t1 - s1 * t0) / determinant }
}
