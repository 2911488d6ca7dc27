// The bench's table: one row per form of the market, seed and engine arm, with issue 40's figures
// and its targets as met / not met (findings, never asserted in tests).
import { type ArmSummary, meetsTargets } from "./ArmSummary.ts"
import { count, percent, row } from "./MarketReport.ts"

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
