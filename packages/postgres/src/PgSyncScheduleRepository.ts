import { WorkspaceId } from "@margin/core/kernel/Ids"
import { Cadence, type SyncSchedule, Weekday } from "@margin/core/schedules/SyncSchedule"
import { SyncScheduleRepository } from "@margin/core/schedules/SyncScheduleRepository"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Instant, toTimestamptz } from "./PgColumns.ts"
import { asRepositoryWith } from "./PgRepositoryError.ts"
import { columnsOf, firstOf, rowsOf } from "./PgRows.ts"

/** A row of `sync_schedules`. */
export const SyncScheduleRow = Schema.Struct({
  workspace_id: WorkspaceId,
  cadence: Cadence,
  weekday: Schema.NullOr(Weekday),
  hour: Schema.Int,
  time_zone: Schema.String,
  run_after_sync: Schema.Boolean,
  updated_at: Instant,
  updated_by: Schema.String
})

const toDomain = (row: typeof SyncScheduleRow.Type): SyncSchedule => ({
  workspaceId: row.workspace_id,
  cadence: row.cadence,
  weekday: row.weekday,
  hour: row.hour,
  timeZone: row.time_zone,
  runAfterSync: row.run_after_sync,
  updatedAt: row.updated_at,
  updatedBy: row.updated_by
})

const one = firstOf(SyncScheduleRow, toDomain)
const all = rowsOf(SyncScheduleRow, toDomain)

export const layer: Layer.Layer<SyncScheduleRepository, never, SqlClient.SqlClient> = Layer.effect(
  SyncScheduleRepository,
  Effect.map(SqlClient.SqlClient, (client) => {
    const sql = client.withoutTransforms()
    const columns = sql.literal(columnsOf(SyncScheduleRow))
    return SyncScheduleRepository.of({
      get: (workspaceId) =>
        sql`SELECT ${columns} FROM sync_schedules WHERE workspace_id = ${workspaceId}`.pipe(
          asRepositoryWith("SyncScheduleRepository.get", one)
        ),
      save: (s) =>
        sql`
        INSERT INTO sync_schedules (${columns})
        VALUES (${s.workspaceId}, ${s.cadence}, ${s.weekday}, ${s.hour}, ${s.timeZone}, ${s.runAfterSync},
          ${toTimestamptz(s.updatedAt)}, ${s.updatedBy})
        ON CONFLICT (workspace_id) DO UPDATE SET cadence = EXCLUDED.cadence, weekday = EXCLUDED.weekday,
          hour = EXCLUDED.hour, time_zone = EXCLUDED.time_zone, run_after_sync = EXCLUDED.run_after_sync,
          updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`.pipe(
          asRepositoryWith("SyncScheduleRepository.save", () => Effect.void)
        ),
      listActive: () =>
        sql`SELECT ${columns} FROM sync_schedules WHERE cadence <> 'off' ORDER BY workspace_id`.pipe(
          asRepositoryWith("SyncScheduleRepository.listActive", all)
        )
    })
  })
)
