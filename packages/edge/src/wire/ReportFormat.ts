import { formatMajorUnits } from "@margin/core/kernel/Money"
import { toIso } from "@margin/core/kernel/Timestamp"
import { ElasticitySource } from "@margin/core/pricing/Elasticity"
import type { ReportRow } from "@margin/core/recommendations/ReportExport"
import { Schema } from "effect"
import { MoneyJson, moneyJson } from "./MoneyJson.ts"
import { ratioJson } from "./RatioJson.ts"
import { IsoTimestamp, isoOrNull } from "./TimestampJson.ts"

/**
 * The report export in its two formats. CSV (RFC 4180, CRLF) for spreadsheets: prices in major
 * units and in minor units; JSON: one object per row, money as on every other endpoint. The
 * elasticity columns came later and sit at the end, so that readers by position keep working.
 */
export const csvColumns = [
  "recommendation_id",
  "run_id",
  "item_id",
  "sku",
  "currency",
  "current_price",
  "current_price_minor",
  "recommended_price",
  "recommended_price_minor",
  "current_margin",
  "projected_margin",
  "expected_monthly_impact",
  "expected_monthly_impact_minor",
  "rule",
  "status",
  "decided_by",
  "decided_at",
  "reject_reason",
  "created_at",
  "elasticity",
  "elasticity_low",
  "elasticity_high",
  "elasticity_source"
] as const

// A field holding the separator of a `;` locale or of a tab-separated paste is quoted too: unquoted,
// `X;=cmd|...` would be split there and its second cell read as a formula.
const needsQuotes = /[",;\t\r\n]/
// A spreadsheet would run text that starts like a formula: such text is prefixed with a quote.
const formulaStart = /^[=+\-@\t\r]/

const numberCell = (value: number | null): string => (value === null ? "" : String(value))

/**
 * Where a reader with another separator (`;`, tab), a line break or a quote starts a cell inside
 * the field: there our quoting does not protect (a quote opens a quoted field only at a cell's
 * start), so a formula start after one of them gets the same leading quote.
 */
const innerFormulaStart = /([;\t\r\n"])([=+\-@])/g

const textCell = (value: string | null): string => {
  if (value === null) return ""
  const safe = (formulaStart.test(value) ? `'${value}` : value).replace(innerFormulaStart, "$1'$2")
  return needsQuotes.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

export const csvHeader = `${csvColumns.join(",")}\r\n`

export const csvLine = (row: ReportRow): string =>
  `${[
    textCell(row.recommendationId),
    textCell(row.runId),
    textCell(row.itemId),
    textCell(row.sku),
    textCell(row.currency),
    formatMajorUnits(row.currentPrice, row.currency),
    numberCell(row.currentPrice),
    formatMajorUnits(row.recommendedPrice, row.currency),
    numberCell(row.recommendedPrice),
    numberCell(ratioJson(row.currentMargin)),
    numberCell(ratioJson(row.projectedMargin)),
    formatMajorUnits(row.expectedMonthlyImpact, row.currency),
    numberCell(row.expectedMonthlyImpact),
    textCell(row.rule),
    textCell(row.status),
    textCell(row.decidedBy),
    textCell(isoOrNull(row.decidedAt)),
    textCell(row.rejectReason),
    textCell(toIso(row.createdAt)),
    numberCell(row.elasticity),
    numberCell(row.elasticityInterval[0]),
    numberCell(row.elasticityInterval[1]),
    textCell(row.elasticitySource)
  ].join(",")}\r\n`

export const ReportRowJson = Schema.Struct({
  recommendation_id: Schema.String,
  run_id: Schema.String,
  item_id: Schema.String,
  sku: Schema.String,
  currency: Schema.String,
  current_price: MoneyJson,
  recommended_price: MoneyJson,
  current_margin: Schema.NullOr(Schema.Finite),
  projected_margin: Schema.NullOr(Schema.Finite),
  expected_monthly_impact: MoneyJson,
  rule: Schema.String,
  status: Schema.String,
  decided_by: Schema.NullOr(Schema.String),
  decided_at: Schema.NullOr(IsoTimestamp),
  reject_reason: Schema.NullOr(Schema.String),
  created_at: IsoTimestamp,
  elasticity: Schema.Finite,
  /** [more negative end, less negative end] of the elasticity's 90 % interval. */
  elasticity_interval: Schema.Tuple([Schema.Finite, Schema.Finite]),
  elasticity_source: ElasticitySource
}).annotate({ identifier: "ReportRow" })
export type ReportRowJson = typeof ReportRowJson.Type

/** The JSON export: `{ "data": [row, ...] }`, written row by row. */
export const ReportJson = Schema.Struct({ data: Schema.Array(ReportRowJson) }).annotate({ identifier: "Report" })

export const ReportCsv = Schema.String.annotate({ description: `CSV with a header line: ${csvColumns.join(", ")}` })

export const jsonRow = (row: ReportRow): ReportRowJson => ({
  recommendation_id: row.recommendationId,
  run_id: row.runId,
  item_id: row.itemId,
  sku: row.sku,
  currency: row.currency,
  current_price: moneyJson(row.currentPrice, row.currency),
  recommended_price: moneyJson(row.recommendedPrice, row.currency),
  current_margin: ratioJson(row.currentMargin),
  projected_margin: ratioJson(row.projectedMargin),
  expected_monthly_impact: moneyJson(row.expectedMonthlyImpact, row.currency),
  rule: row.rule,
  status: row.status,
  decided_by: row.decidedBy,
  decided_at: isoOrNull(row.decidedAt),
  reject_reason: row.rejectReason,
  created_at: toIso(row.createdAt),
  elasticity: row.elasticity,
  elasticity_interval: [row.elasticityInterval[0], row.elasticityInterval[1]],
  elasticity_source: row.elasticitySource
})
