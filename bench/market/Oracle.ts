// The oracle: what the best merchant could do under the same guardrails, knowing every true elasticity.
import { CurrencyCode, minorUnitExponent } from "@margin/core/Money"
import { exceeds, priceLimits } from "@margin/core/PriceLimits"
import type { PricingPolicy } from "@margin/core/PricingPolicy"
import { roundWithin } from "@margin/core/Rounding"
import { expectedProfit, type MarketItem } from "./Market.ts"

const usd = CurrencyCode.make("USD")

/** With constant elasticity e < -1, profit (p - c) × λ (p / p0)^e peaks at p = c × e / (1 + e). */
export const optimalPrice = (item: MarketItem): number => (item.cost * item.elasticity) / (1 + item.elasticity)

/**
 * The oracle's next price from `price`: toward the optimum, clamped to the floor (minimum margin),
 * one step per run (the floor wins over the step, as for the engine), rounded to the policy's grid
 * on the side of the move, and only when the move passes the threshold and truly pays, or restores
 * the floor. Null when it keeps the price.
 */
export const oraclePrice = (item: MarketItem, price: number, policy: PricingPolicy): number | null => {
  const limits = priceLimits(price, item.cost, null, null, policy.minMargin, policy.maxChangePct)
  const goal = Math.max(optimalPrice(item), limits.floor)
  const bounded = Math.max(Math.min(Math.max(goal, limits.stepDown), limits.stepUp), limits.floor)
  if (Math.round(bounded) === price) return null
  const floorWins = bounded > limits.stepUp
  let min = floorWins ? limits.floor : Math.max(limits.floor, limits.stepDown)
  let max = floorWins ? Number.POSITIVE_INFINITY : limits.stepUp
  if (bounded > price) min = Math.max(min, price + 1)
  else max = Math.min(max, price - 1)
  const next = roundWithin(bounded, min, max, policy.rounding, minorUnitExponent(usd))
  const restores = price < limits.floor
  const threshold = policy.threshold * price
  const worthIt = exceeds(Math.abs(bounded - price), threshold) && exceeds(Math.abs(next - price), threshold)
  if (restores) return next
  return worthIt && expectedProfit(item, next) > expectedProfit(item, price) ? next : null
}
