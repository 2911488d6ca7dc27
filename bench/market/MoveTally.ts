// Counts over a set of adopted moves (a cycle, a category, the items with a competitor): how many,
// how many lost money, restorations apart, and how the estimates compared with the truth. Sums, not
// means, so that tallies add up over cycles and categories.

export interface MoveTally {
  /** Price changes adopted. */
  adopted: number
  /** Adopted changes whose true expected profit change (in the cycle's period) was negative. */
  harmful: number
  /** Adopted changes from a price that broke a hard limit (below the floor, above the ceiling), and the harmful among them. */
  restorations: number
  harmfulRestorations: number
  /** Adopted changes that cut the price. */
  cuts: number
  /** Adopted changes priced with an estimate, at a price where the item still sells. */
  estimated: number
  /** Over those: Σ (estimate − true local elasticity at the current price), Σ |…|, and how many intervals held the truth. */
  biasSum: number
  errorSum: number
  covered: number
}

export const emptyTally = (): MoveTally => ({
  adopted: 0,
  harmful: 0,
  restorations: 0,
  harmfulRestorations: 0,
  cuts: 0,
  estimated: 0,
  biasSum: 0,
  errorSum: 0,
  covered: 0
})

/** One adopted move, as the market judges it. */
export interface JudgedMove {
  readonly harms: boolean
  readonly restores: boolean
  readonly cuts: boolean
  /** The true local elasticity at the price moved from (−Infinity where the item no longer sells). */
  readonly truth: number
  /** The estimate and interval the move was priced with; null for the oracle. */
  readonly elasticity: number | null
  readonly interval: readonly [number, number] | null
}

/** Adds a move to a tally (in place: tallies are built in a measuring loop). */
export const addMove = (tally: MoveTally, move: JudgedMove): void => {
  tally.adopted++
  if (move.harms) tally.harmful++
  if (move.restores) tally.restorations++
  if (move.harms && move.restores) tally.harmfulRestorations++
  if (move.cuts) tally.cuts++
  if (move.elasticity === null || !Number.isFinite(move.truth)) return
  tally.estimated++
  tally.biasSum += move.elasticity - move.truth
  tally.errorSum += Math.abs(move.elasticity - move.truth)
  if (move.interval !== null && move.truth >= move.interval[0] && move.truth <= move.interval[1]) tally.covered++
}

/** The sum of tallies. */
export const sumTallies = (tallies: Iterable<MoveTally>): MoveTally => {
  const total = emptyTally()
  for (const tally of tallies) {
    total.adopted += tally.adopted
    total.harmful += tally.harmful
    total.restorations += tally.restorations
    total.harmfulRestorations += tally.harmfulRestorations
    total.cuts += tally.cuts
    total.estimated += tally.estimated
    total.biasSum += tally.biasSum
    total.errorSum += tally.errorSum
    total.covered += tally.covered
  }
  return total
}

const ratio = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole)

/** Harmful / adopted, both outside restorations (0 without such moves). */
export const harmfulOutsideShare = (tally: MoveTally): number =>
  ratio(tally.harmful - tally.harmfulRestorations, tally.adopted - tally.restorations)

/** Mean (estimate − truth), mean |estimate − truth|, and the share of intervals holding the truth. */
export const estimateQuality = (tally: MoveTally) => ({
  bias: ratio(tally.biasSum, tally.estimated),
  error: ratio(tally.errorSum, tally.estimated),
  coverage: ratio(tally.covered, tally.estimated)
})
