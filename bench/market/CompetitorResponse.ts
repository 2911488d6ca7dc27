// How demand answers the price relative to a competitor's, r = price / competitor price: a little
// more demand below the competitor, and demand falling off quickly above it.

/** How quickly demand falls off above the competitor. */
export const premiumSensitivity = 6
/** The most demand undercutting the competitor can win, as a share of the demand at parity. */
export const undercutGain = 0.25

// Far above the competitor the factor is 0 whatever the exponent; keep exp finite.
const pressure = (ratio: number): number => undercutGain * Math.exp(Math.min(premiumSensitivity * (ratio - 1), 600))

/** The factor on demand at r = price / competitor price: 1 at parity, up to 1 + undercutGain below, toward 0 above. */
export const competitorFactor = (ratio: number): number => (1 + undercutGain) / (1 + pressure(ratio))

/** Its elasticity, d ln factor / d ln price at r: what the competitor adds to the item's own elasticity. */
export const competitorElasticity = (ratio: number): number => {
  const p = pressure(ratio)
  return (-premiumSensitivity * ratio * p) / (1 + p)
}
