/**
 * The hard and soft limits of one item's price, in integer minor units.
 * Hard: the floor (the policy's minimum margin or the item's min_price / MAP, whichever is higher)
 * and the ceiling (max_price). Soft: the step, ±max_change_pct around the current price.
 */
export interface PriceLimits {
  readonly floor: number
  /** True when min_price sets the floor (it is at least the minimum-margin price). */
  readonly floorIsMinPrice: boolean
  /** Infinity when the item has no max_price and no competitor limit. */
  readonly ceiling: number
  /** True when the competitor positioning limit sets the ceiling (it is below max_price). */
  readonly ceilingIsCompetitor: boolean
  readonly stepDown: number
  readonly stepUp: number
}

// Ratios such as 1000 / (1 - 0.2) land a hair off the integer they mean; do not let that cost a minor unit.
const slack = (x: number): number => Math.abs(x) * 1e-12 + 1e-9
const ceilTolerant = (x: number): number => Math.ceil(x - slack(x))
const floorTolerant = (x: number): number => Math.floor(x + slack(x))
/** a > b, where a difference within float noise counts as equal. */
export const exceeds = (a: number, b: number): boolean => a - b > slack(b)

export const priceLimits = (
  price: number,
  cost: number | null,
  minPrice: number | null,
  maxPrice: number | null,
  minMargin: number,
  maxChangePct: number,
  competitorPrice: number | null = null,
  maxPremiumOverCompetitor: number | null = null
): PriceLimits => {
  const marginFloor = cost === null ? 0 : ceilTolerant(cost / (1 - minMargin))
  const floorIsMinPrice = minPrice !== null && minPrice >= marginFloor
  const positioning =
    competitorPrice !== null && maxPremiumOverCompetitor !== null && competitorPrice > 0
      ? floorTolerant(competitorPrice * (1 + maxPremiumOverCompetitor))
      : Number.POSITIVE_INFINITY
  const maximum = maxPrice ?? Number.POSITIVE_INFINITY
  return {
    floor: floorIsMinPrice ? minPrice : marginFloor,
    floorIsMinPrice,
    ceiling: Math.min(maximum, positioning),
    ceilingIsCompetitor: positioning < maximum,
    stepDown: Math.max(0, ceilTolerant(price * (1 - maxChangePct))),
    stepUp: floorTolerant(price * (1 + maxChangePct))
  }
}
