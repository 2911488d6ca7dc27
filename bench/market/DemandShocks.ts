// The `shocks` switch: what moves a whole category's demand from one period to the next, whatever
// the prices: a season, a trend and noise. A multiplier on demand, 1 in the tidy market.
import { normal, streamSeed, uniform } from "./Random.ts"

/** Periods in a season's cycle (a year of 30-day periods). */
export const seasonLength = 12
/** The season's amplitude is drawn per category in this range (0.15: demand from 0.85 to 1.15 of normal). */
export const seasonAmplitude = { low: 0.1, high: 0.3 } as const
/** The trend per period is drawn per category in ±this. */
export const trendLimit = 0.02
/** The standard deviation of the per-period noise (log scale). */
export const shockNoise = 0.08

/** Stream key of the shocks' draws, apart from every other stream of the market. */
const shockStream = -5

/**
 * Per category, the demand multiplier of every period from `first` to `last` (index period − first):
 * (1 + A sin(2π t / 12 + φ)) × (1 + g)^t × exp(noise), A, φ and g drawn per category.
 */
export const demandShocks = (
  seed: number,
  categories: number,
  first: number,
  last: number
): ReadonlyArray<ReadonlyArray<number>> =>
  Array.from({ length: categories }, (_, category) => {
    const next = uniform(streamSeed(seed, shockStream, category))
    const amplitude = seasonAmplitude.low + next() * (seasonAmplitude.high - seasonAmplitude.low)
    const phase = next() * 2 * Math.PI
    const trend = (2 * next() - 1) * trendLimit
    return Array.from({ length: last - first + 1 }, (_, offset) => {
      const period = first + offset
      const season = 1 + amplitude * Math.sin((2 * Math.PI * period) / seasonLength + phase)
      // The noise's mean on the multiplier is 1: exp(σ z − σ² / 2).
      return season * (1 + trend) ** period * Math.exp(shockNoise * normal(next) - (shockNoise * shockNoise) / 2)
    })
  })
