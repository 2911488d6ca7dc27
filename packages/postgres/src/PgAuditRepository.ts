import type { AuditEvent } from "@margin/core/audit/AuditEvent"
import { AuditRepository } from "@margin/core/audit/AuditRepository"
import { AuditEventId, WorkspaceId } from "@margin/core/kernel/Ids"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Instant, toTimestamptz } from "./PgColumns.ts"
import { fixedTextOf } from "./PgFixedSql.ts"
import { afterCursor, pageBy } from "./PgPaging.ts"
import { asRepository, asRepositoryWith } from "./PgRepositoryError.ts"
import { columnsOf, rowsOf } from "./PgRows.ts"
import { transactionLane } from "./PgTransactionLane.ts"

export const AuditEventRow = Schema.Struct({
  id: AuditEventId,
  workspace_id: WorkspaceId,
  actor: Schema.String,
  action: Schema.String,
  resource_type: Schema.String,
  resource_id: Schema.String,
  before_status: Schema.NullOr(Schema.String),
  after_status: Schema.NullOr(Schema.String),
  at: Instant
})
export type AuditEventRow = typeof AuditEventRow.Type

export const toDomain = (row: AuditEventRow): AuditEvent => ({
  id: row.id,
  workspaceId: row.workspace_id,
  actor: row.actor,
  action: row.action,
  resourceType: row.resource_type,
  resourceId: row.resource_id,
  beforeStatus: row.before_status,
  afterStatus: row.after_status,
  at: row.at
})

const all = rowsOf(AuditEventRow, toDomain)

export const layer: Layer.Layer<AuditRepository, never, SqlClient.SqlClient> = Layer.effect(
  AuditRepository,
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const columns = sql.literal(columnsOf(AuditEventRow))
    // Every transition records one, inside its transaction (PgTransactionLane): compiled once, its
    // values in the order of `columns`.
    const lane = transactionLane(sql)
    const insert = (values: ReadonlyArray<unknown>) =>
      sql`INSERT INTO audit_events (${columns}) VALUES (${values[0]}, ${values[1]}, ${values[2]}, ${values[3]},
        ${values[4]}, ${values[5]}, ${values[6]}, ${values[7]}, ${values[8]})`
    const insertText = fixedTextOf(9, insert)
    return AuditRepository.of({
      record: (event) => {
        const values = [
          event.id,
          event.workspaceId,
          event.actor,
          event.action,
          event.resourceType,
          event.resourceId,
          event.beforeStatus,
          event.afterStatus,
          toTimestamptz(event.at)
        ]
        return (insertText === null ? insert(values) : lane.rows(insertText, values)).pipe(
          asRepositoryWith("AuditRepository.record", () => Effect.void)
        )
      },
      // Events page by (at, id), newest first.
      list: (workspaceId, page) =>
        sql`
          SELECT ${columns} FROM audit_events
          WHERE workspace_id = ${workspaceId} AND ${afterCursor(sql, page.cursor, "at")}
          ORDER BY at DESC, id DESC
          LIMIT ${page.limit + 1}`.pipe(
          Effect.flatMap(all),
          Effect.map((events) => pageBy(events, (event) => ({ createdAt: event.at, id: event.id }), page.limit)),
          asRepository("AuditRepository.list")
        )
    })
  })
)
