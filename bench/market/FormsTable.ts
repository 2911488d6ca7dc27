// The bench's table: one row per form of the market, seed and engine arm, with issue 40's figures
// and its targets as met / not met (findings, never asserted in tests).
import { type ArmSummary, meetsTargets } from "./ArmSummary.ts"
import { count, percent, row } from "./TextTable.ts"

export interface FormRow {
  readonly form: string
  readonly seed: number
  readonly summary: ArmSummary
  /** The wall time of the form's simulation, seconds. */
  readonly seconds: number
}

// The per-cycle columns hold up to 12 cycles of 3 characters each.
const cycleColumn = 36

const headers = [
  "form",
  "seed",
  "arm",
  "capture",
  "adopted",
  "harm",
  "outside rest.",
  "rest. (harm)",
  "bias",
  "coverage",
  "targets",
  "s",
  "harm outside rest. by cycle (%)".padEnd(cycleColumn),
  "categories below nothing by cycle"
]
const widths = [22, 5, 8, 8, 8, 7, 13, 13, 6, 9, 8, 5, 0, 0]

const perCycle = (values: ReadonlyArray<number>) => values.map((value) => String(value).padStart(3)).join("")

/** The table, as lines: a header, then a row per form, seed and arm. */
export const formsTable = (rows: ReadonlyArray<FormRow>): Array<string> => [
  row(headers, widths),
  ...rows.map(({ form, seed, summary, seconds }) =>
    row(
      [
        form,
        String(seed),
        summary.name,
        percent(summary.captured),
        count(summary.adopted),
        percent(summary.harmfulShare),
        percent(summary.harmfulOutsideShare),
        `${count(summary.restorations)} (${count(summary.harmfulRestorations)})`,
        summary.estimated === 0 ? "-" : summary.bias.toFixed(2),
        summary.estimated === 0 ? "-" : percent(summary.coverage, 0),
        meetsTargets(summary, form === "tidy") ? "met" : "NOT met",
        seconds.toFixed(1),
        perCycle(summary.harmfulOutsideByCycle.map((share) => Math.round(share * 100))).padEnd(cycleColumn),
        perCycle(summary.belowNothingByCycle)
      ],
      widths
    )
  )
]

const range = (values: ReadonlyArray<number>, show: (x: number) => string): string => {
  const low = show(Math.min(...values))
  const high = show(Math.max(...values))
  return low === high ? low : `${low} to ${high}`
}

/** Per form and engine arm, the range of its figures over the seeds, and in how many the targets were met. */
export const rangeLines = (rows: ReadonlyArray<FormRow>): Array<string> => {
  const groups = new Map<string, Array<FormRow>>()
  for (const formRow of rows) {
    if (formRow.summary.name === "oracle") continue
    const key = `${formRow.form}, ${formRow.summary.name}`
    groups.set(key, [...(groups.get(key) ?? []), formRow])
  }
  return [...groups].map(([key, group]) => {
    const of = (pick: (summary: ArmSummary) => number) => group.map((formRow) => pick(formRow.summary))
    const met = group.filter((formRow) => meetsTargets(formRow.summary, formRow.form === "tidy")).length
    return (
      `  ${key}: capture ${range(
        of((s) => s.captured),
        (x) => percent(x)
      )}, ` +
      `harm outside restorations ${range(
        of((s) => s.harmfulOutsideShare),
        (x) => percent(x)
      )}, ` +
      `bias ${range(
        of((s) => s.bias),
        (x) => x.toFixed(2)
      )}, coverage ${range(
        of((s) => s.coverage),
        (x) => percent(x, 0)
      )}, ` +
      `targets met in ${met} of ${group.length} seeds`
    )
  })
}
