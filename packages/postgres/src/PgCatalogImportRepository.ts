import {
  CatalogImportFormat,
  type CatalogImportRecord,
  CatalogImportStatus,
  CatalogImportSummarySchema
} from "@margin/core/catalog/CatalogImportRecord"
import { CatalogImportRepository } from "@margin/core/catalog/CatalogImportRepository"
import { CatalogImportId, WorkspaceId } from "@margin/core/kernel/Ids"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Instant, toTimestamptz } from "./PgColumns.ts"
import { asRepositoryWith } from "./PgRepositoryError.ts"
import { columnsOf, firstOf } from "./PgRows.ts"

/** A row of `catalog_imports`; the summary is jsonb, in the domain's shape. */
export const CatalogImportRow = Schema.Struct({
  id: CatalogImportId,
  workspace_id: WorkspaceId,
  status: CatalogImportStatus,
  format: CatalogImportFormat,
  dry_run: Schema.Boolean,
  summary: CatalogImportSummarySchema,
  requested_by: Schema.String,
  created_at: Instant,
  finished_at: Instant
})

const toDomain = (row: typeof CatalogImportRow.Type): CatalogImportRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  status: row.status,
  format: row.format,
  dryRun: row.dry_run,
  summary: row.summary,
  requestedBy: row.requested_by,
  createdAt: row.created_at,
  finishedAt: row.finished_at
})

const one = firstOf(CatalogImportRow, toDomain)

export const layer: Layer.Layer<CatalogImportRepository, never, SqlClient.SqlClient> = Layer.effect(
  CatalogImportRepository,
  Effect.map(SqlClient.SqlClient, (client) => {
    const sql = client.withoutTransforms()
    const columns = sql.literal(columnsOf(CatalogImportRow))
    return CatalogImportRepository.of({
      insert: (record) =>
        sql`
        INSERT INTO catalog_imports (${columns}) VALUES (${record.id}, ${record.workspaceId}, ${record.status},
          ${record.format}, ${record.dryRun}, ${JSON.stringify(record.summary)}::jsonb, ${record.requestedBy},
          ${toTimestamptz(record.createdAt)}, ${toTimestamptz(record.finishedAt)})`.pipe(
          asRepositoryWith("CatalogImportRepository.insert", () => Effect.void)
        ),
      get: (workspaceId, id) =>
        sql`SELECT ${columns} FROM catalog_imports WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          asRepositoryWith("CatalogImportRepository.get", one)
        )
    })
  })
)
