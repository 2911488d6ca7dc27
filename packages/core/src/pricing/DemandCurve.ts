/**
 * The demand curve a profit move is priced on: around the current price P, with x = ln(p / P),
 * ln units(p) = ln units(P) + e·x + c·x²/2, where e is the elasticity at P and c its curvature
 * (de / d ln price, DemandCurvature). c = 0 is constant elasticity. Pure arithmetic, no allocation.
 */

/** Units expected per period at `next`, from `units` at `price`. A zero price on either side keeps the units. */
export const unitsAt = (units: number, price: number, next: number, e: number, c: number): number => {
  if (price <= 0 || next <= 0 || (e === 0 && c === 0)) return units
  const x = Math.log(next / price)
  return units * Math.exp(x * (e + (c * x) / 2))
}

/** Expected profit change per period of moving from `price` to `next` (the revenue change with a zero cost). */
export const profitChangeAt = (
  units: number,
  price: number,
  next: number,
  unitCost: number,
  e: number,
  c: number
): number => unitsAt(units, price, next, e, c) * (next - unitCost) - units * (price - unitCost)

/** Prices further than this factor from the current one are not searched: a run moves one step. */
const searchFactor = 4
const iterations = 40

/**
 * The profit-maximising price for a positive cost: where the margin (p − cost) / p equals −1 / e(p),
 * e(p) = e + c·ln(p / P). Constant elasticity (c = 0) has it in closed form, cost × e / (1 + e), for
 * e < −1; otherwise bisection on the sign of d profit / d ln p between the cost and 4 × P (the upper end
 * when profit still rises there). Callers ask only where the elasticity at P is below −1.
 */
export const profitOptimum = (cost: number, price: number, e: number, c: number): number => {
  if (c === 0) return (cost * e) / (1 + e)
  // d profit / d ln p has the sign of p + (p − cost)·(e + c·x): positive just above the cost.
  const rising = (x: number): boolean => {
    const p = price * Math.exp(x)
    return p + (p - cost) * (e + c * x) > 0
  }
  let low = Math.log(cost / price)
  let high = Math.log(searchFactor)
  if (low >= high || rising(high)) return price * searchFactor
  for (let i = 0; i < iterations; i++) {
    const middle = (low + high) / 2
    if (rising(middle)) low = middle
    else high = middle
  }
  return price * Math.exp((low + high) / 2)
}
