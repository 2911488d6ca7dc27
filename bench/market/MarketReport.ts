// One simulation's figures in detail, as the bench prints them for a single form and seed: per cycle,
// per arm, per category (findings, never asserted anywhere).
import { cyclesOf, summarise } from "./ArmSummary.ts"
import { categoryTag } from "./Market.ts"
import { estimateQuality, harmfulOutsideShare, type MoveTally, sumTallies } from "./MoveTally.ts"
import type { SimulationResult } from "./Simulation.ts"
import { count, money, percent, row, signed } from "./TextTable.ts"

const sum = (values: ReadonlyArray<number>): number => values.reduce((total, value) => total + value, 0)

/** Mean (estimate − truth) / mean |estimate − truth| / truth inside the interval. */
const quality = (tally: MoveTally): string => {
  const { bias, error, coverage } = estimateQuality(tally)
  return `${bias.toFixed(2)} / ${error.toFixed(2)} / ${percent(coverage, 0)}`
}

/** Count / harmful outside restorations / bias / coverage (the last two only for estimated moves). */
const movesCell = (tally: MoveTally): string => {
  const { bias, coverage } = estimateQuality(tally)
  const estimates = tally.estimated === 0 ? "" : ` / ${bias.toFixed(2)} / ${percent(coverage, 0)}`
  return `${count(tally.adopted)} / ${percent(harmfulOutsideShare(tally))}${estimates}`
}

/** The report, as lines. */
export const reportLines = (result: SimulationResult): Array<string> => {
  const lines: Array<string> = []
  const names = result.arms.map((arm) => arm.name)
  const engineNames = names.filter((name) => name !== "oracle")
  const cycles = result.nothing.length

  lines.push("Expected profit per 30 days (USD, true model), and the change against doing nothing:")
  const widths = [6, 12, ...names.map(() => 22)]
  lines.push(row(["cycle", "nothing", ...names], widths))
  result.nothing.forEach((nothing, cycle) => {
    const cells = names.map((name) => {
      const profit = cyclesOf(result, name)[cycle]?.profit ?? 0
      return `${money(profit)} (${signed(profit / nothing.profit - 1)})`
    })
    lines.push(row([String(cycle + 1), money(nothing.profit), ...cells], widths))
  })

  lines.push("")
  lines.push(
    "Adopted recommendations per cycle: count / harmful (true expected profit change < 0) / restorations (harmful) / price cuts:"
  )
  const moveWidths = [6, ...names.map(() => 30)]
  lines.push(row(["cycle", ...names], moveWidths))
  for (let cycle = 0; cycle < cycles; cycle++) {
    const cells = names.map((name) => {
      const found = cyclesOf(result, name)[cycle]
      return found === undefined
        ? ""
        : `${count(found.adopted)} / ${count(found.harmful)} / ${count(found.restorations)} (${count(found.harmfulRestorations)}) / ${count(found.cuts)}`
    })
    lines.push(row([String(cycle + 1), ...cells], moveWidths))
  }

  lines.push("")
  lines.push(
    "Elasticity the adopted recommendations were priced with, against the true local elasticity at the current price: mean (estimate − truth) / mean |estimate − truth| / truth inside the interval:"
  )
  lines.push(row(["cycle", ...engineNames], moveWidths))
  for (let cycle = 0; cycle < cycles; cycle++) {
    const cells = engineNames.map((name) => {
      const found = cyclesOf(result, name)[cycle]
      return found === undefined || found.estimated === 0 ? "" : quality(found)
    })
    lines.push(row([String(cycle + 1), ...cells], moveWidths))
  }

  lines.push("")
  lines.push(`Per category, expected profit summed over ${cycles} cycles against doing nothing:`)
  const categoryWidths = [12, 8, 14, ...names.map(() => 12)]
  lines.push(row(["category", "true e", "nothing", ...names], categoryWidths))
  result.market.categoryElasticities.forEach((elasticity, category) => {
    const base = sum(result.nothing.map((cycle) => cycle.profitByCategory[category] ?? 0))
    const cells = names.map((name) =>
      signed(sum(cyclesOf(result, name).map((cycle) => cycle.profitByCategory[category] ?? 0)) / base - 1)
    )
    lines.push(row([categoryTag(category), elasticity.toFixed(2), money(base), ...cells], categoryWidths))
  })

  lines.push("")
  lines.push(
    `Per category over ${cycles} cycles, the moves: count / harmful outside restorations / mean (estimate − truth) / truth inside the interval:`
  )
  const tallyWidths = [12, 8, ...names.map(() => 30)]
  lines.push(row(["category", "true e", ...names], tallyWidths))
  result.market.categoryElasticities.forEach((elasticity, category) => {
    const cells = names.map((name) =>
      movesCell(sumTallies(cyclesOf(result, name).flatMap((cycle) => cycle.byCategory[category] ?? [])))
    )
    lines.push(row([categoryTag(category), elasticity.toFixed(2), ...cells], tallyWidths))
  })
  if (result.market.shape.switches.competitors) {
    const cells = names.map((name) =>
      movesCell(sumTallies(cyclesOf(result, name).map((cycle) => cycle.withCompetitor)))
    )
    lines.push(row(["competitor", "", ...cells], tallyWidths))
  }

  lines.push("")
  lines.push("Summary over all cycles:")
  const summaryWidths = [14, 14, 10, 10, 12, 10, 24]
  lines.push(
    row(
      ["arm", "oracle uplift", "adopted", "harmful", "outside rest.", "cuts", "categories below nothing"],
      summaryWidths
    )
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
          percent(summary.harmfulOutsideShare),
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
    const listed = [...summarise(result, name).harmfulByRule]
      .sort((a, b) => b[1] - a[1])
      .map(([rule, n]) => `${rule} ${count(n)}`)
    lines.push(`  ${name}, harmful moves by rule: ${listed.length === 0 ? "none" : listed.join(", ")}`)
  }
  return lines
}
