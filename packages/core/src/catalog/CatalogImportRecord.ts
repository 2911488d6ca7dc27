import { Schema } from "effect"
import { CatalogImportId, WorkspaceId } from "../kernel/Ids.ts"
import { Timestamp } from "../kernel/Timestamp.ts"
import type { CatalogImportSummary } from "./CatalogImportSummary.ts"

/**
 * What an import is once it has run: only `succeeded` today, as an import is recorded in the very
 * transaction that applies it (a file refused as a whole, or an import that died, leaves no record).
 * A status rather than nothing, so that an import run in the background can add `queued` and `running`.
 */
export const CatalogImportStatus = Schema.Literal("succeeded")
export type CatalogImportStatus = typeof CatalogImportStatus.Type

export const CatalogImportFormat = Schema.Literals(["csv", "jsonl"])

const Count = Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)))

export const CatalogImportSummarySchema = Schema.Struct({
  created: Count,
  updated: Count,
  priceChanged: Count,
  costChanged: Count,
  otherChanged: Count,
  unchanged: Count,
  stalePrice: Count,
  rejected: Schema.Array(Schema.Struct({ line: Count, error: Schema.String })),
  rejectedTotal: Count
})

/** One import of a catalog file into a workspace (REST and MCP read it back by id). */
export const CatalogImportRecord = Schema.Struct({
  id: CatalogImportId,
  workspaceId: WorkspaceId,
  status: CatalogImportStatus,
  format: CatalogImportFormat,
  /** A dry run decided every line and wrote nothing but this record. */
  dryRun: Schema.Boolean,
  summary: CatalogImportSummarySchema,
  /** Who imported (Actor.actorLabel). */
  requestedBy: Schema.String,
  createdAt: Timestamp,
  finishedAt: Timestamp
})
export type CatalogImportRecord = typeof CatalogImportRecord.Type

// The summary's schema and its type say the same.
export const summaryOfRecord = (summary: CatalogImportSummary): CatalogImportRecord["summary"] => summary
