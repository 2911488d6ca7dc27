/**
 * The A/B of bench:http: each variant's slices against the reference's (BENCH_AB_REFERENCE) of
 * the same round and index, taken back to back, so that the machine's drift falls on both alike.
 * Per pair, the variant's gain in requests per second and in server CPU per request; over the
 * pairs, the median, the quartiles and how many pairs the variant won, called on the 5 % bar of
 * docs/performance.md (`verdictOf`).
 */

/** What the A/B reads of one measured slice of one server. */
export interface Slice {
  readonly latencies: ReadonlyArray<number>
  readonly elapsedMs: number
  readonly cpuMs: number | null
}

/** The bar a workaround must clear, end to end. */
export const bar = 0.05

/** The q-quantile of sorted values, interpolated between neighbours. */
export const quantile = (sorted: ReadonlyArray<number>, q: number): number => {
  if (sorted.length === 0) return Number.NaN
  const at = (sorted.length - 1) * q
  const below = sorted[Math.floor(at)] ?? Number.NaN
  const above = sorted[Math.ceil(at)] ?? Number.NaN
  return below + (above - below) * (at - Math.floor(at))
}

export interface Spread {
  readonly median: number
  readonly q25: number
  readonly q75: number
  /** Share of the pairs where the variant did better. */
  readonly won: number
  readonly pairs: number
}

export const spreadOf = (gains: ReadonlyArray<number>): Spread => {
  const sorted = [...gains].sort((a, b) => a - b)
  return {
    median: quantile(sorted, 0.5),
    q25: quantile(sorted, 0.25),
    q75: quantile(sorted, 0.75),
    won: sorted.filter((gain) => gain > 0).length / Math.max(1, sorted.length),
    pairs: sorted.length
  }
}

/**
 * The variant's gain over the reference, called on the 5 % bar: at least 5 % better (median, and
 * the lower quartile above 0), at least 5 % worse (median, and the upper quartile below 0), within
 * 5 % either way (both quartiles inside), or too noisy to call.
 */
export const verdictOf = (spread: Spread): string =>
  spread.pairs === 0
    ? "no pairs"
    : spread.median >= bar && spread.q25 > 0
      ? "gains >= 5 %"
      : spread.median <= -bar && spread.q75 < 0
        ? "loses >= 5 %"
        : spread.q75 < bar && spread.q25 > -bar
          ? "within 5 %"
          : "too noisy to call"

const rateOf = (slice: Slice) => (slice.latencies.length * 1000) / slice.elapsedMs
const cpuPerRequestOf = (slice: Slice) =>
  slice.cpuMs === null || slice.latencies.length === 0 ? null : slice.cpuMs / slice.latencies.length

/** Per pair of slices: the variant's rate gain, and its CPU gain (the reference's CPU per request over its own, less 1). */
export const gainsOf = (reference: ReadonlyArray<Slice>, variant: ReadonlyArray<Slice>) => {
  const rate: Array<number> = []
  const cpu: Array<number> = []
  for (let index = 0; index < Math.min(reference.length, variant.length); index++) {
    const a = reference[index]
    const b = variant[index]
    if (a === undefined || b === undefined || a.latencies.length === 0 || b.latencies.length === 0) continue
    rate.push(rateOf(b) / rateOf(a) - 1)
    const cpuA = cpuPerRequestOf(a)
    const cpuB = cpuPerRequestOf(b)
    if (cpuA !== null && cpuB !== null && cpuB > 0) cpu.push(cpuA / cpuB - 1)
  }
  return { rate: spreadOf(rate), cpu: spreadOf(cpu) }
}

const percent = (value: number) => `${value >= 0 ? "+" : ""}${(value * 100).toFixed(1)} %`
const said = (spread: Spread) =>
  `median ${percent(spread.median)} [${percent(spread.q25)} .. ${percent(spread.q75)}], better in ${spread.pairs === 0 ? 0 : Math.round(spread.won * spread.pairs)}/${spread.pairs} (${verdictOf(spread)})`

/** The A/B's lines: per scenario and variant, its rate and CPU gains over `referenceName`'s. */
export const abLines = (
  scenarios: ReadonlyArray<string>,
  slicesByKey: ReadonlyMap<string, ReadonlyArray<Slice>>,
  referenceName: string,
  variants: ReadonlyArray<string>
): ReadonlyArray<string> =>
  scenarios.flatMap((scenario) => {
    const reference = slicesByKey.get(`${scenario}/${referenceName}`) ?? []
    return variants.map((variant) => {
      const gains = gainsOf(reference, slicesByKey.get(`${scenario}/${variant}`) ?? [])
      return `  ${scenario} ${variant}: req/s ${said(gains.rate)}; CPU/req ${said(gains.cpu)}`
    })
  })
