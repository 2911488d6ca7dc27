import type { CatalogImportRecord } from "@margin/core/catalog/CatalogImportRecord"
import { CatalogImportFormat, CatalogImportStatus } from "@margin/core/catalog/CatalogImportRecord"
import { toIso } from "@margin/core/kernel/Timestamp"
import { Schema } from "effect"
import { CatalogImportSummaryJson, catalogImportSummaryJson } from "./CatalogImportSummaryJson.ts"
import { IsoTimestamp } from "./TimestampJson.ts"

/** One catalog import as REST and MCP answer it (POST /api/v1/catalog/imports, and GET it back). */
export const CatalogImportJson = Schema.Struct({
  id: Schema.String,
  /** `succeeded` today; clients ignore values they do not know (queued, running may come). */
  status: CatalogImportStatus,
  format: CatalogImportFormat,
  /** A dry run decided every line and wrote nothing. */
  dry_run: Schema.Boolean,
  summary: CatalogImportSummaryJson,
  requested_by: Schema.String,
  created_at: IsoTimestamp,
  finished_at: IsoTimestamp
}).annotate({ identifier: "CatalogImport" })
export type CatalogImportJson = typeof CatalogImportJson.Type

export const catalogImportJson = (record: CatalogImportRecord): CatalogImportJson => ({
  id: record.id,
  status: record.status,
  format: record.format,
  dry_run: record.dryRun,
  summary: catalogImportSummaryJson(record.summary),
  requested_by: record.requestedBy,
  created_at: toIso(record.createdAt),
  finished_at: toIso(record.finishedAt)
})
