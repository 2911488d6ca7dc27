// The `competitors` switch: a competitor's price for an item, period by period. It wanders (a random
// walk) and now and then runs a one-period promotion; the merchant imports it as `competitor_price`.
import { normal, streamSeed, uniform } from "./Random.ts"

/** The share of items with a competitor. */
export const competitorShare = 0.6
/** The competitor's starting price against the item's: exp(N(mean, sd)) times it. */
export const startingPremium = { mean: 0.05, sd: 0.1 } as const
/** The walk's standard deviation per period (log scale). */
export const competitorDrift = 0.03
/** The chance of a promotion in a period, and its depth. */
export const promotion = { chance: 0.15, low: 0.1, high: 0.25 } as const

/** Stream key of the competitors' draws, apart from every other stream of the market. */
const competitorStream = -4

/**
 * The competitor's price (minor units) of every period from `first` to `last` (index period − first),
 * or null when the item has none.
 */
export const competitorPath = (
  seed: number,
  index: number,
  startPrice: number,
  first: number,
  last: number
): ReadonlyArray<number> | null => {
  const next = uniform(streamSeed(seed, competitorStream, index))
  if (next() >= competitorShare) return null
  let level = Math.log(startPrice) + startingPremium.mean + startingPremium.sd * normal(next)
  return Array.from({ length: last - first + 1 }, () => {
    level += competitorDrift * normal(next)
    const promoted = next() < promotion.chance
    const depth = promotion.low + next() * (promotion.high - promotion.low)
    return Math.max(1, Math.round(Math.exp(level) * (promoted ? 1 - depth : 1)))
  })
}
