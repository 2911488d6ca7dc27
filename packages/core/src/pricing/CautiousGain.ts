/**
 * The decision rule under an uncertain demand curve: a profit move is judged, and sized, by what it gains
 * when demand answers it at the pessimistic end of what the estimate allows, not by what it gains if the
 * estimated curve were the truth.
 *
 * Around the current price P, with x = ln(p / P), the estimate says ln units(p) − ln units(P) = e·x + c·x²/2
 * (DemandCurve). Two things about it are uncertain: the elasticity e (its 90 % interval [low, high]) and the
 * curvature c (its standard deviation sd(c): the pool's, or the item's own where its prices show a bend). The
 * pessimistic change of ln units is
 *
 *     g(x) = e·x + c·x²/2 − |x|·√(a² + x²·b²),   a = e − low for a raise (high − e for a cut),   b = z·sd(c) / 2
 *
 * the 90 % ends of both, combined as independent errors: with no doubt on the curvature it is the interval's
 * end (x·low for a raise, x·high for a cut), which is the trust rule's pessimistic end. The further the move,
 * the more the curvature's doubt weighs (x² against x): small moves near the current price are judged on the
 * elasticity, large ones also on how the curve may bend. Profit rises with the units (above the cost), so the
 * profit at g(x) is the lower end of the move's profit. Plain arithmetic: this is the hot loop of a run.
 */

/** The one-sided 95 % quantile: with a two-sided 90 % interval on the elasticity, the curvature at its same end. */
export const curvatureZ = 1.6448536269514722

/** What the decision rule knows of an item's demand at its current price. */
export interface DemandBelief {
  /** The elasticity at the current price and its 90 % interval, [low, high] (low the more elastic end). */
  readonly elasticity: number
  readonly low: number
  readonly high: number
  /** The curvature de / d ln(price) and its standard deviation. */
  readonly curvature: number
  readonly curvatureSd: number
}

/** How far below the point estimate's ln-units change the pessimistic one lies, for a move of x (ln ratio). */
const doubt = (x: number, belief: DemandBelief): number => {
  const a = x > 0 ? belief.elasticity - belief.low : belief.high - belief.elasticity
  const b = (curvatureZ * belief.curvatureSd) / 2
  return Math.abs(x) * Math.sqrt(a * a + x * x * b * b)
}

/** The pessimistic change of ln(units) for a move of x = ln(next / price): g(x) above. */
export const cautiousLogUnitsChange = (x: number, belief: DemandBelief): number =>
  x * (belief.elasticity + (belief.curvature * x) / 2) - doubt(x, belief)

/**
 * The monthly profit change of moving from `price` to `next` when demand answers at the pessimistic end
 * (the revenue change with a zero cost). A zero price on either side keeps the units.
 */
export const cautiousProfitChange = (
  units: number,
  price: number,
  next: number,
  unitCost: number,
  belief: DemandBelief
): number => {
  if (price <= 0 || next <= 0) return units * (next - unitCost) - units * (price - unitCost)
  return (
    units * Math.exp(cautiousLogUnitsChange(Math.log(next / price), belief)) * (next - unitCost) -
    units * (price - unitCost)
  )
}

/** Prices further than this factor above the current one are not searched: a run moves one step. */
const searchFactor = 4
const iterations = 40

/**
 * d ln(pessimistic profit) / dx at x ≠ 0: e + c·x ∓ d doubt / dx + p / (p − cost). The doubt term's
 * derivative is (a² + 2x²b²) / √(a² + x²b²), 0 where there is no doubt.
 */
const slope = (x: number, price: number, cost: number, belief: DemandBelief): number => {
  const a = x > 0 ? belief.elasticity - belief.low : belief.high - belief.elasticity
  const b = (curvatureZ * belief.curvatureSd) / 2
  const root = Math.sqrt(a * a + x * x * b * b)
  const doubtSlope = root === 0 ? 0 : (a * a + 2 * x * x * b * b) / root
  const p = price * Math.exp(x)
  return belief.elasticity + belief.curvature * x - Math.sign(x) * doubtSlope + p / (p - cost)
}

/**
 * The price that maximises the pessimistic profit, for a positive cost below the price: the current price
 * when neither a raise nor a cut gains at the pessimistic end (the one-sided slopes at P: low + P / (P − cost)
 * for a raise, high + P / (P − cost) for a cut), else bisection on the sign of the slope on that side, between
 * P and 4 × P for a raise, between just above the cost and P for a cut. The pessimistic profit is concave in
 * ln(p) when c ≤ 0 (each of its terms is), so the root is its maximum; it lies between P and the point
 * estimate's optimum, since the doubt only ever pulls toward P.
 */
export const cautiousOptimum = (cost: number, price: number, belief: DemandBelief): number => {
  if (!(cost > 0) || !(price > cost)) return price
  const margin = price / (price - cost)
  const up = belief.low + margin > 0
  const down = belief.high + margin < 0
  if (up === down) return price
  let inner = 0
  let outer = up ? Math.log(searchFactor) : Math.log(cost / price)
  if (up && slope(outer, price, cost, belief) > 0) return price * searchFactor
  for (let i = 0; i < iterations; i++) {
    const middle = (inner + outer) / 2
    // Still rising away from P on a raise (or still falling toward P on a cut): the peak is further out.
    if (up ? slope(middle, price, cost, belief) > 0 : slope(middle, price, cost, belief) < 0) inner = middle
    else outer = middle
  }
  return price * Math.exp((inner + outer) / 2)
}
