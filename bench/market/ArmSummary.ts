// One arm's figures over a simulation's cycles: the share of the oracle's uplift it captured, its
// harm (all, outside restorations, restorations on their own), per cycle the harm and the categories
// below doing nothing, and how its estimates compared with the true local elasticities.
import { estimateQuality, harmfulOutsideShare, sumTallies } from "./MoveTally.ts"
import type { ArmCycle, SimulationResult } from "./Simulation.ts"

export interface ArmSummary {
  readonly name: string
  /** Σ (arm − nothing) / Σ (oracle − nothing) over the cycles. */
  readonly captured: number
  readonly adopted: number
  readonly harmful: number
  readonly restorations: number
  readonly harmfulRestorations: number
  /** Harmful / adopted. */
  readonly harmfulShare: number
  /** Harmful / adopted, both outside restorations. */
  readonly harmfulOutsideShare: number
  /** Per cycle, the harmful share outside restorations (0 for a cycle without such moves). */
  readonly harmfulOutsideByCycle: ReadonlyArray<number>
  /** Per cycle, the number of categories whose expected profit fell below doing nothing's. */
  readonly belowNothingByCycle: ReadonlyArray<number>
  /** The categories below doing nothing in some cycle. */
  readonly categoriesBelowNothing: ReadonlyArray<number>
  readonly cutShare: number
  /** Adopted moves priced with an estimate (none for the oracle). */
  readonly estimated: number
  /** Mean (estimate − true local elasticity) and mean |…| over the moves priced with an estimate. */
  readonly bias: number
  readonly error: number
  /** The share of those whose interval held the true local elasticity. */
  readonly coverage: number
  /** Harmful moves by rule code. */
  readonly harmfulByRule: ReadonlyMap<string, number>
}

const sum = (values: ReadonlyArray<number>): number => values.reduce((total, value) => total + value, 0)
const ratio = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole)
// Float sums of thousands of items: a difference this small is the same profit.
const below = (value: number, reference: number): boolean => value < reference - Math.abs(reference) * 1e-9

export const cyclesOf = (result: SimulationResult, name: string): ReadonlyArray<ArmCycle> =>
  result.arms.find((arm) => arm.name === name)?.cycles ?? []

const belowNothing = (result: SimulationResult, cycle: ArmCycle, index: number): Array<number> =>
  (result.nothing[index]?.profitByCategory ?? []).flatMap((nothing, category) =>
    below(cycle.profitByCategory[category] ?? 0, nothing) ? [category] : []
  )

export const summarise = (result: SimulationResult, name: string): ArmSummary => {
  const cycles = cyclesOf(result, name)
  const uplift = (arm: ReadonlyArray<ArmCycle>) =>
    sum(arm.map((cycle, index) => cycle.profit - (result.nothing[index]?.profit ?? 0)))
  const oracleUplift = uplift(cyclesOf(result, "oracle"))
  const moves = sumTallies(cycles)
  const belowByCycle = cycles.map((cycle, index) => belowNothing(result, cycle, index))
  const harmfulByRule = new Map<string, number>()
  for (const cycle of cycles) {
    for (const [rule, n] of Object.entries(cycle.harmfulByRule))
      harmfulByRule.set(rule, (harmfulByRule.get(rule) ?? 0) + n)
  }
  return {
    name,
    captured: oracleUplift === 0 ? 1 : uplift(cycles) / oracleUplift,
    adopted: moves.adopted,
    harmful: moves.harmful,
    restorations: moves.restorations,
    harmfulRestorations: moves.harmfulRestorations,
    harmfulShare: ratio(moves.harmful, moves.adopted),
    harmfulOutsideShare: harmfulOutsideShare(moves),
    harmfulOutsideByCycle: cycles.map(harmfulOutsideShare),
    belowNothingByCycle: belowByCycle.map((categories) => categories.length),
    categoriesBelowNothing: [...new Set(belowByCycle.flat())].sort((a, b) => a - b),
    cutShare: ratio(moves.cuts, moves.adopted),
    estimated: moves.estimated,
    ...estimateQuality(moves),
    harmfulByRule
  }
}

/** Issue 40's targets for the engine; the tidy market's are stricter. */
export const targets = {
  captured: 0.8,
  harmfulOutside: 0.05,
  /** No category below doing nothing in any cycle after these first ones. */
  graceCycles: 2,
  tidyCaptured: 0.88,
  tidyHarmfulOutside: 0.03
} as const

/** Whether a summary meets the targets (the tidy ones when `tidy`). */
export const meetsTargets = (summary: ArmSummary, tidy: boolean): boolean =>
  summary.captured >= (tidy ? targets.tidyCaptured : targets.captured) &&
  summary.harmfulOutsideShare <= (tidy ? targets.tidyHarmfulOutside : targets.harmfulOutside) &&
  summary.belowNothingByCycle.every((count, index) => index < targets.graceCycles || count === 0)
