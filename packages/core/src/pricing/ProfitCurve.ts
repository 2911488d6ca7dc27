/**
 * What a recommendation's page draws: the expected monthly profit of an item against its price, as
 * the recommendation's own estimate sees it. Demand around the current price P follows the
 * elasticity e it printed (units q(p) = q0 · (p / P)^e, q0 the units sold in the last 30 days at P),
 * profit is (p − cost) · q(p); the band is the same at the two ends of the elasticity's 90 %
 * interval (they cross at P, where the units are known). A local picture, not a forecast far from P:
 * the range runs from a tenth below the lowest to a tenth above the highest of the current price, the
 * recommended price and the limits, and a limit more than a third away from P is left out.
 */
export interface ProfitCurveInput {
  /** Minor units. */
  readonly currentPrice: number
  readonly recommendedPrice: number
  /** Minor units per unit; null when the cost is unknown (no curve then). */
  readonly cost: number | null
  /** Units sold in the last 30 days at the current price; 0 means no curve (nothing to scale by). */
  readonly unitsAtCurrent: number
  readonly elasticity: number
  readonly interval: readonly [number, number]
  /** The price limits the run applied, minor units; null when none (no floor: cost unknown). */
  readonly floor: number | null
  readonly ceiling: number | null
}

export interface ProfitCurve {
  /** Prices drawn, ascending, minor units; the current and recommended prices among them. */
  readonly prices: ReadonlyArray<number>
  /** Expected monthly profit at each price, minor units, at the estimate. */
  readonly estimate: ReadonlyArray<number>
  /** The band: the lower and higher profit of the interval's two ends at each price. */
  readonly low: ReadonlyArray<number>
  readonly high: ReadonlyArray<number>
  readonly current: number
  readonly recommended: number
  /** Drawn only when they fall within the range. */
  readonly floor: number | null
  readonly ceiling: number | null
}

/** Samples across the range, besides the marked prices. */
export const profitCurveSteps = 60
/** How far from the current price a limit may lie and still be drawn (a local estimate). */
const reach = 1 / 3

const profitAt = (input: ProfitCurveInput, cost: number, price: number, elasticity: number): number =>
  (price - cost) * input.unitsAtCurrent * (price / input.currentPrice) ** elasticity

/** The curve, or null when there is nothing honest to draw: no cost, no sales, or no price. */
export const profitCurve = (input: ProfitCurveInput): ProfitCurve | null => {
  const cost = input.cost
  if (cost === null || input.unitsAtCurrent <= 0 || input.currentPrice <= 0 || input.recommendedPrice <= 0) {
    return null
  }
  const lowest = input.currentPrice * (1 - reach)
  const highest = input.currentPrice * (1 + reach)
  const within = (limit: number | null) =>
    limit !== null && Number.isFinite(limit) && limit >= lowest && limit <= highest ? limit : null
  const floor = within(input.floor)
  const ceiling = within(input.ceiling)
  const marks = [input.currentPrice, input.recommendedPrice, floor ?? input.currentPrice, ceiling ?? input.currentPrice]
  const from = Math.min(...marks) * 0.9
  const to = Math.max(...marks) * 1.1
  const prices = [
    ...new Set([
      ...Array.from({ length: profitCurveSteps + 1 }, (_, i) =>
        Math.round(from + ((to - from) * i) / profitCurveSteps)
      ),
      input.currentPrice,
      input.recommendedPrice
    ])
  ].toSorted((a, b) => a - b)
  const [one, other] = input.interval
  const ends = prices.map((price): readonly [number, number] => [
    profitAt(input, cost, price, one),
    profitAt(input, cost, price, other)
  ])
  return {
    prices,
    estimate: prices.map((price) => Math.round(profitAt(input, cost, price, input.elasticity))),
    low: ends.map(([a, b]) => Math.round(Math.min(a, b))),
    high: ends.map(([a, b]) => Math.round(Math.max(a, b))),
    current: input.currentPrice,
    recommended: input.recommendedPrice,
    floor,
    ceiling
  }
}
