import { Actor } from "@margin/core/access/Actor"
import { RunId, StoreSyncId, WorkspaceId } from "@margin/core/kernel/Ids"
import { type StoreSyncJob, StoreSyncJobStatus } from "@margin/core/stores/StoreSyncJob"
import { StoreSyncJobRepository } from "@margin/core/stores/StoreSyncJobRepository"
import { StoreSyncReport, StoreSyncTrigger } from "@margin/core/stores/StoreSyncState"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Instant, NullableInstant, toNullableTimestamptz, toTimestamptz } from "./PgColumns.ts"
import { asRepositoryWith } from "./PgRepositoryError.ts"
import { columnsOf, firstOf, touchedAny } from "./PgRows.ts"

/** A row of `store_syncs` without its lease columns; the actor and the report are jsonb in the domain's shape. */
export const StoreSyncJobRow = Schema.Struct({
  id: StoreSyncId,
  workspace_id: WorkspaceId,
  trigger: StoreSyncTrigger,
  slot_at: NullableInstant,
  run_after_sync: Schema.Boolean,
  status: StoreSyncJobStatus,
  actor: Actor,
  created_at: Instant,
  started_at: NullableInstant,
  finished_at: NullableInstant,
  attempts: Schema.Int,
  report: Schema.NullOr(StoreSyncReport),
  error: Schema.NullOr(Schema.String),
  run_id: Schema.NullOr(RunId),
  run_refused: Schema.NullOr(Schema.String)
})

const toDomain = (row: typeof StoreSyncJobRow.Type): StoreSyncJob => ({
  id: row.id,
  workspaceId: row.workspace_id,
  trigger: row.trigger,
  slotAt: row.slot_at,
  runAfterSync: row.run_after_sync,
  status: row.status,
  actor: row.actor,
  createdAt: row.created_at,
  startedAt: row.started_at,
  finishedAt: row.finished_at,
  attempts: row.attempts,
  report: row.report,
  error: row.error,
  runId: row.run_id,
  runRefused: row.run_refused
})

const one = firstOf(StoreSyncJobRow, toDomain)

const jsonOrNull = (value: unknown): string | null => (value === null ? null : JSON.stringify(value))

export const layer: Layer.Layer<StoreSyncJobRepository, never, SqlClient.SqlClient> = Layer.effect(
  StoreSyncJobRepository,
  Effect.map(SqlClient.SqlClient, (client) => {
    const sql = client.withoutTransforms()
    const columns = sql.literal(columnsOf(StoreSyncJobRow))
    const claimedColumns = sql.literal(columnsOf(StoreSyncJobRow, "s"))
    return StoreSyncJobRepository.of({
      // The unique (workspace_id, slot_at) decides between workers queueing one slot.
      insert: (job) =>
        sql`
        INSERT INTO store_syncs (${columns})
        VALUES (${job.id}, ${job.workspaceId}, ${job.trigger}, ${toNullableTimestamptz(job.slotAt)}, ${job.runAfterSync},
          ${job.status}, ${JSON.stringify(job.actor)}::jsonb, ${toTimestamptz(job.createdAt)},
          ${toNullableTimestamptz(job.startedAt)}, ${toNullableTimestamptz(job.finishedAt)}, ${job.attempts},
          ${jsonOrNull(job.report)}::jsonb, ${job.error}, ${job.runId}, ${job.runRefused})
        ON CONFLICT (workspace_id, slot_at) DO NOTHING
        RETURNING id`.pipe(
          asRepositoryWith("StoreSyncJobRepository.insert", (rows) => Effect.succeed(touchedAny(rows)))
        ),
      get: (workspaceId, id) =>
        sql`SELECT ${columns} FROM store_syncs WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          asRepositoryWith("StoreSyncJobRepository.get", one)
        ),
      latest: (workspaceId) =>
        sql`SELECT ${columns} FROM store_syncs WHERE workspace_id = ${workspaceId}
          ORDER BY created_at DESC, id DESC LIMIT 1`.pipe(asRepositoryWith("StoreSyncJobRepository.latest", one)),
      active: (workspaceId) =>
        sql`SELECT ${columns} FROM store_syncs WHERE workspace_id = ${workspaceId} AND status IN ('queued', 'running')
          ORDER BY created_at, id LIMIT 1`.pipe(asRepositoryWith("StoreSyncJobRepository.active", one)),
      // Queued, or running under a lease that ran out: SKIP LOCKED lets concurrent workers pass each other.
      claim: (owner, now, leaseMs) =>
        sql`
        WITH due AS (
          SELECT id FROM store_syncs
          WHERE status = 'queued' OR (status = 'running' AND (lease_expires_at IS NULL OR lease_expires_at <= ${toTimestamptz(now)}))
          ORDER BY created_at, id
          LIMIT 1
          FOR UPDATE SKIP LOCKED
        )
        UPDATE store_syncs s
        SET status = 'running', started_at = coalesce(s.started_at, ${toTimestamptz(now)}), attempts = s.attempts + 1,
          lease_owner = ${owner}, lease_expires_at = ${toTimestamptz(now + leaseMs)}
        FROM due WHERE s.id = due.id
        RETURNING ${claimedColumns}`.pipe(asRepositoryWith("StoreSyncJobRepository.claim", one)),
      finish: (job, owner) =>
        sql`
        UPDATE store_syncs
        SET status = ${job.status}, finished_at = ${toNullableTimestamptz(job.finishedAt)},
          report = ${jsonOrNull(job.report)}::jsonb, error = ${job.error}, run_id = ${job.runId},
          run_refused = ${job.runRefused}, lease_owner = NULL, lease_expires_at = NULL
        WHERE id = ${job.id} AND status = 'running' AND lease_owner = ${owner}
        RETURNING id`.pipe(
          asRepositoryWith("StoreSyncJobRepository.finish", (rows) => Effect.succeed(touchedAny(rows)))
        )
    })
  })
)
