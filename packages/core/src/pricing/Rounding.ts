import type { RoundingMode } from "./PricingPolicy.ts"

/**
 * Price rounding on a grid of allowed prices `offset + k * step` (minor units).
 * A "cent" is the hundredth of a major unit; for currencies without decimals it is one unit,
 * so `99` gives ¥1,299 and `whole` gives ¥1,300 (the endings act on the last two digits).
 */
const centOf = (exponent: number): number => (exponent <= 2 ? 1 : 10 ** (exponent - 2))

/** The spacing of the allowed prices, in minor units. */
export const gridStep = (mode: RoundingMode, exponent: number): number => {
  switch (mode) {
    case "none":
      return 1
    case "49_99":
      return 50 * centOf(exponent)
    default:
      return 100 * centOf(exponent)
  }
}

/** Where the grid starts, in minor units (`99` -> x.99). */
export const gridOffset = (mode: RoundingMode, exponent: number): number => {
  switch (mode) {
    case "none":
    case "whole":
      return 0
    case "95":
      return 95 * centOf(exponent)
    case "99":
      return 99 * centOf(exponent)
    case "49_99":
      return 49 * centOf(exponent) // a 50-cent grid from .49: .49, .99, 1.49...
  }
}

/** True when `price` is one of the prices the rounding mode allows. */
export const isOnGrid = (price: number, mode: RoundingMode, exponent: number): boolean => {
  const step = gridStep(mode, exponent)
  const offset = gridOffset(mode, exponent)
  return (((price - offset) % step) + step) % step === 0
}

/**
 * The allowed price nearest to `x` within the integer bounds `[min, max]` (which contain `x`);
 * an exact tie goes up. When no allowed price fits, the rounding gives way to the bounds and
 * `x` is rounded to a whole minor unit instead.
 */
export const roundWithin = (x: number, min: number, max: number, mode: RoundingMode, exponent: number): number => {
  const step = gridStep(mode, exponent)
  const offset = gridOffset(mode, exponent)
  const below = Math.floor((x - offset) / step) * step + offset
  const above = below === x ? below : below + step
  const belowFits = below >= min && below <= max
  const aboveFits = above >= min && above <= max
  if (belowFits && aboveFits) return x - below < above - x ? below : above
  if (belowFits) return below
  if (aboveFits) return above
  return Math.min(Math.max(Math.round(x), min), max)
}
