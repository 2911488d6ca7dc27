// How an item's demand answers its own price, as a function of x = price / starting price, equal to
// 1 at x = 1. The tidy market's curve has a constant elasticity; the `curves` switch puts items on
// curves whose elasticity changes with the price, as real demand does.

export type DemandCurve =
  /** λ ∝ x^e: the same elasticity at every price. */
  | { readonly _tag: "constant"; readonly elasticity: number }
  /** λ ∝ 1 + e (x − 1): elasticity e at the starting price, steeper above it, flatter below; no demand past x = 1 − 1/e. */
  | { readonly _tag: "linear"; readonly elasticity: number }
  /**
   * λ ∝ q(x) = 1 / (1 + exp(β (x − 1) + z0)): a share of shoppers who buy, `share` of them at the
   * starting price (q(1) = share), with β chosen so that the elasticity there is e. Flatter where
   * most buy (low prices), steeper where few do.
   */
  | { readonly _tag: "logit"; readonly elasticity: number; readonly share: number }

const logitSlope = (elasticity: number, share: number): number => -elasticity / (1 - share)
const logitShare = (elasticity: number, share: number, x: number): number =>
  1 / (1 + Math.exp(logitSlope(elasticity, share) * (x - 1) + Math.log((1 - share) / share)))

/** Demand at x = price / starting price, relative to the demand at the starting price. */
export const curveDemand = (curve: DemandCurve, x: number): number => {
  switch (curve._tag) {
    case "constant":
      return x ** curve.elasticity
    case "linear":
      return Math.max(0, 1 + curve.elasticity * (x - 1))
    case "logit":
      return logitShare(curve.elasticity, curve.share, x) / curve.share
  }
}

/** The local elasticity d ln λ / d ln price at x; −Infinity where a linear curve's demand is gone. */
export const curveElasticity = (curve: DemandCurve, x: number): number => {
  switch (curve._tag) {
    case "constant":
      return curve.elasticity
    case "linear": {
      const level = 1 + curve.elasticity * (x - 1)
      return level > 0 ? (curve.elasticity * x) / level : Number.NEGATIVE_INFINITY
    }
    case "logit":
      return -logitSlope(curve.elasticity, curve.share) * x * (1 - logitShare(curve.elasticity, curve.share, x))
  }
}
