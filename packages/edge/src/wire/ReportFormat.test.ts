import { assert, describe, it } from "@effect/vitest"
import { CurrencyCode } from "@margin/core/kernel/Money"
import type { ReportRow } from "@margin/core/recommendations/ReportExport"
import * as fc from "fast-check"
import { csvLine } from "./ReportFormat.ts"

const row = (overrides: Partial<ReportRow>): ReportRow => ({
  recommendationId: "rec_1",
  runId: "run_1",
  itemId: "itm_1",
  sku: "SKU-1",
  currency: CurrencyCode.make("EUR"),
  currentPrice: 1000,
  recommendedPrice: 1100,
  currentMargin: 0.2,
  projectedMargin: 0.25,
  expectedMonthlyImpact: 500,
  rule: "margin_floor",
  status: "rejected",
  decidedBy: null,
  decidedAt: null,
  rejectReason: null,
  createdAt: 1_700_000_000_000,
  elasticity: -1.5,
  elasticityInterval: [-2, -1],
  elasticitySource: "prior",
  ...overrides
})

/** The cells of a CSV line as a spreadsheet splits it on `separator` (RFC 4180 quoting). */
const cells = (line: string, separator: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  let cell = ""
  let quoted = false
  const text = line.replace(/\r\n$/, "")
  for (let index = 0; index < text.length; index++) {
    const char = text[index]
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"'
        index++
      } else if (char === '"') quoted = false
      else cell += char
    } else if (char === '"' && cell === "") quoted = true
    else if (char === separator) {
      found.push(cell)
      cell = ""
    } else cell += char
  }
  found.push(cell)
  return found
}

/** A cell a spreadsheet would evaluate: starting with = + - @, and not a plain number such as -1.5. */
const formula = /^[=+\-@](?![0-9.]+$)/

describe("the CSV export", () => {
  it("a field holding ; or a tab is quoted: a ; locale's spreadsheet sees no formula cell", () => {
    const line = csvLine(row({ sku: "X;=cmd|' /C calc'!A0;Y", rejectReason: "ok;=cmd|' /C calc'!A0;x\t@SUM(1)" }))
    assert.include(line, `"X;'=cmd|' /C calc'!A0;Y"`)
    for (const separator of [",", ";", "\t"]) {
      for (const cell of cells(line, separator)) assert.notMatch(cell, formula, `${separator}: ${cell} in ${line}`)
    }
  })

  it("the = + - @ guard holds: a text cell starting like a formula gets a leading quote", () => {
    const line = csvLine(row({ sku: "=1+1", rejectReason: "@SUM(A1)" }))
    assert.include(line, ",'=1+1,")
    assert.include(line, ",'@SUM(A1),")
  })

  it("whatever the SKU and reason, no cell under , ; or tab starts a formula", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("=", "+", "-", "@", ";", ",", "\t", '"', "a", " ", "\r", "\n") }),
        fc.string({ unit: fc.constantFrom("=", "+", "@", ";", ",", "\t", '"', "x", "|") }),
        (sku, reason) => {
          const line = csvLine(row({ sku, rejectReason: reason }))
          return [",", ";", "\t"].every((separator) => cells(line, separator).every((cell) => !formula.test(cell)))
        }
      )
    )
  })
})
