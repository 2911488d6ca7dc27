// The simulation's figures as the bench prints them: per cycle, per objective, per category, and the
// targets of issue 28 as met / not met (never asserted anywhere: they are findings, not tests).
import { categoryTag } from "./Market.ts"
import type { ArmCycle, ArmName, SimulationResult } from "./Simulation.ts"

/** The targets the `profit` objective is held to. */
export const targets = { captured: 0.8, harmful: 0.05 } as const

export interface ArmSummary {
  readonly name: ArmName
  /** Σ (arm − nothing) / Σ (oracle − nothing) over the cycles. */
  readonly captured: number
  readonly adopted: number
  readonly harmfulShare: number
  readonly cutShare: number
  /** Categories where some cycle's expected profit fell below doing nothing. */
  readonly categoriesBelowNothing: ReadonlyArray<number>
}

const sum = (values: ReadonlyArray<number>): number => values.reduce((total, value) => total + value, 0)
// Float sums of thousands of items: a difference this small is the same profit.
const below = (value: number, reference: number): boolean => value < reference - Math.abs(reference) * 1e-9

const cyclesOf = (result: SimulationResult, name: ArmName): ReadonlyArray<ArmCycle> =>
  result.arms.find((arm) => arm.name === name)?.cycles ?? []

export const summarise = (result: SimulationResult, name: ArmName): ArmSummary => {
  const cycles = cyclesOf(result, name)
  const uplift = (arm: ReadonlyArray<ArmCycle>) => sum(arm.map((cycle) => cycle.profit - result.nothing.profit))
  const oracleUplift = uplift(cyclesOf(result, "oracle"))
  const adopted = sum(cycles.map((cycle) => cycle.adopted))
  const share = (count: number) => (adopted === 0 ? 0 : count / adopted)
  const categoriesBelowNothing = result.nothing.profitByCategory.flatMap((nothing, category) =>
    cycles.some((cycle) => below(cycle.profitByCategory[category] ?? 0, nothing)) ? [category] : []
  )
  return {
    name,
    captured: oracleUplift === 0 ? 1 : uplift(cycles) / oracleUplift,
    adopted,
    harmfulShare: share(sum(cycles.map((cycle) => cycle.harmful))),
    cutShare: share(sum(cycles.map((cycle) => cycle.cuts))),
    categoriesBelowNothing
  }
}

const money = (minor: number) =>
  (minor / 100).toLocaleString("en-US", { minimumFractionDigits: 0, maximumFractionDigits: 0 })
const percent = (x: number, digits = 1) => `${(x * 100).toFixed(digits)} %`
const signed = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)} %`
const count = (n: number) => n.toLocaleString("en-US")

const row = (cells: ReadonlyArray<string>, widths: ReadonlyArray<number>) =>
  cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ")

/** The report, as lines. */
export const reportLines = (result: SimulationResult): Array<string> => {
  const lines: Array<string> = []
  const names: ReadonlyArray<ArmName> = ["profit", "target_margin", "oracle"]
  const nothing = result.nothing.profit
  const cycles = cyclesOf(result, "oracle").length

  lines.push("Expected profit per 30 days (USD, true model), and the change against doing nothing:")
  const widths = [6, 12, 22, 22, 22]
  lines.push(row(["cycle", "nothing", ...names], widths))
  for (let cycle = 0; cycle < cycles; cycle++) {
    const cells = names.map((name) => {
      const profit = cyclesOf(result, name)[cycle]?.profit ?? 0
      return `${money(profit)} (${signed(profit / nothing - 1)})`
    })
    lines.push(row([String(cycle + 1), money(nothing), ...cells], widths))
  }

  lines.push("")
  lines.push("Adopted recommendations per cycle: count / harmful (true expected profit change < 0) / price cuts:")
  const moveWidths = [6, 26, 26, 26]
  lines.push(row(["cycle", ...names], moveWidths))
  for (let cycle = 0; cycle < cycles; cycle++) {
    const cells = names.map((name) => {
      const found = cyclesOf(result, name)[cycle]
      return found === undefined ? "" : `${count(found.adopted)} / ${count(found.harmful)} / ${count(found.cuts)}`
    })
    lines.push(row([String(cycle + 1), ...cells], moveWidths))
  }

  lines.push("")
  lines.push(
    "Elasticity the adopted recommendations were priced with, against the truth: mean (estimate − truth) / mean |estimate − truth| / truth inside the interval:"
  )
  const engineNames = names.filter((name) => name !== "oracle")
  lines.push(row(["cycle", ...engineNames], moveWidths))
  for (let cycle = 0; cycle < cycles; cycle++) {
    const cells = engineNames.map((name) => {
      const found = cyclesOf(result, name)[cycle]
      return found === undefined
        ? ""
        : `${found.estimateBias.toFixed(2)} / ${found.estimateError.toFixed(2)} / ${percent(found.intervalCoverage, 0)}`
    })
    lines.push(row([String(cycle + 1), ...cells], moveWidths))
  }

  lines.push("")
  lines.push(`Per category, expected profit summed over ${cycles} cycles against doing nothing:`)
  const categoryWidths = [12, 8, 14, 12, 14, 12]
  lines.push(row(["category", "true e", "nothing", ...names], categoryWidths))
  result.market.categoryElasticities.forEach((elasticity, category) => {
    const base = result.nothing.profitByCategory[category] ?? 0
    const cells = names.map((name) => {
      const total = sum(cyclesOf(result, name).map((cycle) => cycle.profitByCategory[category] ?? 0))
      return signed(total / (base * cycles) - 1)
    })
    lines.push(row([categoryTag(category), elasticity.toFixed(2), money(base * cycles), ...cells], categoryWidths))
  })

  lines.push("")
  lines.push("Summary over all cycles:")
  const summaryWidths = [14, 18, 10, 10, 10, 24]
  lines.push(
    row(["objective", "oracle uplift", "adopted", "harmful", "cuts", "categories below nothing"], summaryWidths)
  )
  for (const name of names) {
    const summary = summarise(result, name)
    lines.push(
      row(
        [
          name,
          percent(summary.captured),
          count(summary.adopted),
          percent(summary.harmfulShare),
          percent(summary.cutShare),
          summary.categoriesBelowNothing.length === 0
            ? "none"
            : summary.categoriesBelowNothing.map(categoryTag).join(", ")
        ],
        summaryWidths
      )
    )
  }

  for (const name of engineNames) {
    const byRule = new Map<string, number>()
    for (const cycle of cyclesOf(result, name)) {
      for (const [rule, n] of Object.entries(cycle.harmfulByRule)) byRule.set(rule, (byRule.get(rule) ?? 0) + n)
    }
    const listed = [...byRule].sort((a, b) => b[1] - a[1]).map(([rule, n]) => `${rule} ${count(n)}`)
    lines.push(`  ${name}, harmful moves by rule: ${listed.length === 0 ? "none" : listed.join(", ")}`)
  }

  const profit = summarise(result, "profit")
  const verdict = (met: boolean) => (met ? "met" : "NOT met")
  lines.push("")
  lines.push(`Targets for the profit objective over ${cycles} cycles:`)
  lines.push(
    `  captures >= ${percent(targets.captured, 0)} of the oracle's uplift: ${percent(profit.captured)}, ${verdict(profit.captured >= targets.captured)}`
  )
  lines.push(
    `  never below doing nothing in any category (any cycle): ${profit.categoriesBelowNothing.length} categories below, ${verdict(profit.categoriesBelowNothing.length === 0)}`
  )
  lines.push(
    `  <= ${percent(targets.harmful, 0)} of adopted recommendations harmful: ${percent(profit.harmfulShare)}, ${verdict(profit.harmfulShare <= targets.harmful)}`
  )
  return lines
}
