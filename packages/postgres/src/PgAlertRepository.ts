import { type Alert, AlertStatus } from "@margin/core/alerts/Alert"
import { type AlertFilter, AlertRepository } from "@margin/core/alerts/AlertRepository"
import { AlertId, CatalogItemId, RunId, WorkspaceId } from "@margin/core/kernel/Ids"
import { AlertKind, AlertSeverity } from "@margin/core/pricing/Pricing"
import { Array as Arr, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { Fragment } from "effect/sql/Statement"
import { insertSkippingConflicts } from "./PgBatchInsert.ts"
import { Instant, Int8, NullableInstant, toNullableTimestamptz, toTimestamptz } from "./PgColumns.ts"
import { updateOn } from "./PgDecide.ts"
import { afterCursor, asPage } from "./PgPaging.ts"
import { asRepository, asRepositoryWith } from "./PgRepositoryError.ts"
import { columnsOf, firstOf, rowsOf, transitionChanges } from "./PgRows.ts"

export const AlertRow = Schema.Struct({
  id: AlertId,
  workspace_id: WorkspaceId,
  run_id: Schema.NullOr(RunId),
  item_id: Schema.NullOr(CatalogItemId),
  kind: AlertKind,
  severity: AlertSeverity,
  message: Schema.String,
  status: AlertStatus,
  snoozed_until: NullableInstant,
  snooze_reason: Schema.NullOr(Schema.String),
  resolved_at: NullableInstant,
  dismissed_at: NullableInstant,
  version: Int8,
  created_at: Instant,
  updated_at: Instant
})
export type AlertRow = typeof AlertRow.Type

export const toDomain = (row: AlertRow): Alert => ({
  id: row.id,
  workspaceId: row.workspace_id,
  runId: row.run_id,
  itemId: row.item_id,
  kind: row.kind,
  severity: row.severity,
  message: row.message,
  status: row.status,
  snoozedUntil: row.snoozed_until,
  snoozeReason: row.snooze_reason,
  resolvedAt: row.resolved_at,
  dismissedAt: row.dismissed_at,
  version: row.version,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

export const toRow = (alert: Alert) => ({
  id: alert.id,
  workspace_id: alert.workspaceId,
  run_id: alert.runId,
  item_id: alert.itemId,
  kind: alert.kind,
  severity: alert.severity,
  message: alert.message,
  status: alert.status,
  snoozed_until: toNullableTimestamptz(alert.snoozedUntil),
  snooze_reason: alert.snoozeReason,
  resolved_at: toNullableTimestamptz(alert.resolvedAt),
  dismissed_at: toNullableTimestamptz(alert.dismissedAt),
  version: alert.version,
  created_at: toTimestamptz(alert.createdAt),
  updated_at: toTimestamptz(alert.updatedAt)
})

/** The SQL type of each column of `toRow`, for batch inserts. */
const insertTypes = {
  id: "text",
  workspace_id: "text",
  run_id: "text",
  item_id: "text",
  kind: "text",
  severity: "text",
  message: "text",
  status: "text",
  snoozed_until: "timestamptz",
  snooze_reason: "text",
  resolved_at: "timestamptz",
  dismissed_at: "timestamptz",
  version: "integer",
  created_at: "timestamptz",
  updated_at: "timestamptz"
} as const satisfies Record<keyof ReturnType<typeof toRow>, string>

const one = firstOf(AlertRow, toDomain)
const all = rowsOf(AlertRow, toDomain)
const changes = transitionChanges(AlertRow, toRow)

export const layer: Layer.Layer<AlertRepository, never, SqlClient.SqlClient> = Layer.effect(
  AlertRepository,
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const columns = sql.literal(columnsOf(AlertRow))

    /** The effective status (AlertMachine.effectiveStatus): a snooze that has run out by `now` reads as open. */
    const hasStatus = (status: AlertFilter["status"], now: number): Fragment => {
      const at = toTimestamptz(now)
      switch (status) {
        case null:
          return sql.literal("TRUE")
        case "open":
          return sql`(status = 'open' OR (status = 'snoozed' AND (snoozed_until IS NULL OR snoozed_until <= ${at})))`
        case "snoozed":
          return sql`(status = 'snoozed' AND snoozed_until > ${at})`
        default:
          return sql`status = ${status}`
      }
    }

    return AlertRepository.of({
      get: (workspaceId, id) =>
        sql`SELECT ${columns} FROM alerts WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          asRepositoryWith("AlertRepository.get", one)
        ),
      list: (workspaceId, filter, page, now) =>
        sql`
          SELECT ${columns} FROM alerts
          WHERE workspace_id = ${workspaceId}
            AND ${hasStatus(filter.status, now)}
            AND ${filter.kind === null ? sql.literal("TRUE") : sql`kind = ${filter.kind}`}
            AND ${filter.itemId === null ? sql.literal("TRUE") : sql`item_id = ${filter.itemId}`}
            AND ${afterCursor(sql, page.cursor)}
          ORDER BY created_at DESC, id DESC
          LIMIT ${page.limit + 1}`.pipe(asPage("AlertRepository.list", all, page.limit)),
      update: updateOn(sql, {
        table: "alerts",
        columns,
        first: { reads: "rows", decode: one },
        changes,
        operation: "AlertRepository.update"
      }),
      // DO NOTHING without a target: the partial unique index on (workspace_id, item_id, kind) of open
      // and snoozed alerts skips a subject that already stands (also twice in one batch), and a
      // duplicate id is skipped alike.
      raiseMany: (alerts) =>
        insertSkippingConflicts(sql, "alerts", insertTypes, Arr.map(alerts, toRow)).pipe(
          sql.withTransaction,
          asRepository("AlertRepository.raiseMany")
        )
    })
  })
)
