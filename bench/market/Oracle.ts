// The oracle: what the best merchant could do under the same guardrails, knowing the true demand of
// every period (its curve, the category's shock, the competitor's price) and every cost.
import { CurrencyCode, minorUnitExponent } from "@margin/core/kernel/Money"
import { exceeds, priceLimits } from "@margin/core/pricing/PriceLimits"
import type { PricingPolicy } from "@margin/core/pricing/PricingPolicy"
import { roundWithin } from "@margin/core/pricing/Rounding"
import { competitorAt, costAt, expectedProfit, type Market, type MarketItem } from "./Market.ts"

const usd = CurrencyCode.make("USD")

/** The scan's range above the cost (an elasticity of −1.05 peaks at 21 × cost) and its points. */
const scanTop = 30
const scanPoints = 120
const refinements = 30
const golden = (Math.sqrt(5) - 1) / 2

/**
 * The price that maximises the period's true expected profit. The curves, the shock and the
 * competitor's factor have no common closed form, so: a scan of log-spaced prices from the cost to
 * 30 × cost, then golden-section search between the best point's neighbours. With constant
 * elasticity e and no competitor it finds cost × e / (1 + e).
 */
export const optimalPrice = (market: Market, item: MarketItem, period: number): number => {
  const cost = costAt(market, item, period)
  const profit = (price: number) => expectedProfit(market, item, price, period)
  const ratio = scanTop ** (1 / scanPoints)
  let best = 0
  let bestProfit = Number.NEGATIVE_INFINITY
  for (let point = 0; point <= scanPoints; point++) {
    const value = profit(cost * ratio ** point)
    if (value > bestProfit) {
      bestProfit = value
      best = point
    }
  }
  let low = cost * ratio ** Math.max(best - 1, 0)
  let high = cost * ratio ** Math.min(best + 1, scanPoints)
  for (let step = 0; step < refinements; step++) {
    const left = high - golden * (high - low)
    const right = low + golden * (high - low)
    if (profit(left) < profit(right)) low = left
    else high = right
  }
  return (low + high) / 2
}

/** The policy's limits on the item's price in `period`, with that period's cost and competitor price. */
export const periodLimits = (market: Market, item: MarketItem, price: number, period: number, policy: PricingPolicy) =>
  priceLimits(
    price,
    costAt(market, item, period),
    null,
    null,
    policy.minMargin,
    policy.maxChangePct,
    competitorAt(item, period),
    policy.maxPremiumOverCompetitor
  )

const clamp = (x: number, min: number, max: number): number => Math.min(Math.max(x, min), max)

/**
 * The oracle's next price from `price` in `period`: toward the true optimum, clamped to the floor
 * (minimum margin) and the competitor ceiling, one step per run (the hard limits win over the step,
 * as for the engine), rounded to the policy's grid on the side of the move, and only when the move
 * passes the threshold and truly pays, or restores a hard limit. Null when it keeps the price.
 */
export const oraclePrice = (
  market: Market,
  item: MarketItem,
  price: number,
  period: number,
  policy: PricingPolicy
): number | null => {
  const { floor, ceiling, stepDown, stepUp } = periodLimits(market, item, price, period, policy)
  if (floor > ceiling) return null
  const goal = clamp(optimalPrice(market, item, period), floor, ceiling)
  const bounded = clamp(clamp(goal, stepDown, stepUp), floor, ceiling)
  if (Math.round(bounded) === price) return null
  const limitWins = bounded > stepUp || bounded < stepDown
  let min = limitWins ? floor : Math.max(floor, stepDown)
  let max = limitWins ? ceiling : Math.min(ceiling, stepUp)
  if (bounded > price) min = Math.max(min, price + 1)
  else max = Math.min(max, price - 1)
  const next = roundWithin(bounded, min, max, policy.rounding, minorUnitExponent(usd))
  if (price < floor || price > ceiling) return next
  const threshold = policy.threshold * price
  const worthIt = exceeds(Math.abs(bounded - price), threshold) && exceeds(Math.abs(next - price), threshold)
  return worthIt && expectedProfit(market, item, next, period) > expectedProfit(market, item, price, period)
    ? next
    : null
}

/** Whether a move from `price` in `period` restores a hard limit (the price is below the floor or above the ceiling). */
export const restoresLimit = (
  market: Market,
  item: MarketItem,
  price: number,
  period: number,
  policy: PricingPolicy
): boolean => {
  const limits = periodLimits(market, item, price, period, policy)
  return price < limits.floor || price > limits.ceiling
}
