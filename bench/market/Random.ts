// Seeded randomness for the simulated market: the same seed gives the same market on every machine.

/** A uniform draw in [0, 1). */
export type Uniform = () => number

/** mulberry32: small, fast, and the same sequence on every machine. */
export const uniform = (seed: number): Uniform => {
  let state = seed | 0
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A standard normal draw (Box-Muller). */
export const normal = (next: Uniform): number => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next())

/** A draw whose logarithm is uniform between ln(low) and ln(high). */
export const logUniform = (next: Uniform, low: number, high: number): number =>
  Math.exp(Math.log(low) + next() * (Math.log(high) - Math.log(low)))

/**
 * The seed of one stream, from the run's seed and a few integers (item, cycle...). Every item and
 * cycle has its own stream, so each arm of the simulation sees the same luck for the same item and
 * cycle (common random numbers), whatever the other items did.
 */
export const streamSeed = (...parts: ReadonlyArray<number>): number => {
  let h = 0x811c9dc5
  for (const part of parts) {
    h = Math.imul(h ^ (part | 0), 0x01000193)
    h = Math.imul(h ^ (h >>> 13), 0x5bd1e995)
    h ^= h >>> 15
  }
  return h
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7): enough for Poisson acceptance tests. */
const lanczos = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7
]
const logGamma = (x: number): number => {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x)
  const z = x - 1
  let sum = lanczos[0] ?? 1
  for (let i = 1; i < lanczos.length; i++) sum += (lanczos[i] ?? 0) / (z + i)
  const t = z + 7.5
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum)
}

/** Knuth's product of uniforms: exact, cheap for a small mean. */
const smallPoisson = (mean: number, next: Uniform): number => {
  const limit = Math.exp(-mean)
  let count = 0
  let product = next()
  while (product > limit) {
    count++
    product *= next()
  }
  return count
}

/** Hörmann's transformed rejection (PTRS), exact for a mean of 10 or more, in O(1) draws. */
const largePoisson = (mean: number, next: Uniform): number => {
  const root = Math.sqrt(mean)
  const logMean = Math.log(mean)
  const b = 0.931 + 2.53 * root
  const a = -0.059 + 0.02483 * b
  const inverseAlpha = 1.1239 + 1.1328 / (b - 3.4)
  const vr = 0.9277 - 3.6224 / (b - 2)
  for (;;) {
    const u = next() - 0.5
    const v = next()
    const us = 0.5 - Math.abs(u)
    const k = Math.floor(((2 * a) / us + b) * u + mean + 0.43)
    if (us >= 0.07 && v <= vr) return k
    if (k < 0 || (us < 0.013 && v > us)) continue
    if (Math.log(v) + Math.log(inverseAlpha) - Math.log(a / (us * us) + b) <= -mean + k * logMean - logGamma(k + 1))
      return k
  }
}

/** A Poisson draw with the given mean (>= 0). */
export const poisson = (mean: number, next: Uniform): number =>
  mean <= 0 ? 0 : mean < 10 ? smallPoisson(mean, next) : largePoisson(mean, next)
