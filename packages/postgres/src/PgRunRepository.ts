import { Tag } from "@margin/core/catalog/Tag"
import { RunId, WorkspaceId } from "@margin/core/kernel/Ids"
import { type Run, RunStatus, RunTrigger } from "@margin/core/runs/Run"
import { RunRepository } from "@margin/core/runs/RunRepository"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Instant, Int8, NullableInstant, NullableInt8, toNullableTimestamptz, toTimestamptz } from "./PgColumns.ts"
import { updateOn } from "./PgDecide.ts"
import { afterCursor, asPage } from "./PgPaging.ts"
import { asRepository, asRepositoryWith, type PgFailure } from "./PgRepositoryError.ts"
import { columnsOf, countOf, firstOf, rowsOf, touchedAny, transitionChanges } from "./PgRows.ts"

/** A row of `runs` as the domain sees it; the lease columns (lease_owner, lease_expires_at) stay in SQL. */
export const RunRow = Schema.Struct({
  id: RunId,
  workspace_id: WorkspaceId,
  status: RunStatus,
  subset_tags: Schema.Array(Tag),
  trigger: RunTrigger,
  requested_by: Schema.NullOr(Schema.String),
  items_total: NullableInt8,
  items_analysed: Int8,
  recommendations_count: Int8,
  alerts_count: Int8,
  error: Schema.NullOr(Schema.String),
  version: Int8,
  created_at: Instant,
  started_at: NullableInstant,
  finished_at: NullableInstant
})
export type RunRow = typeof RunRow.Type

export const toDomain = (row: RunRow): Run => ({
  id: row.id,
  workspaceId: row.workspace_id,
  status: row.status,
  subsetTags: row.subset_tags,
  trigger: row.trigger,
  requestedBy: row.requested_by,
  itemsTotal: row.items_total,
  itemsAnalysed: row.items_analysed,
  recommendationsCount: row.recommendations_count,
  alertsCount: row.alerts_count,
  error: row.error,
  version: row.version,
  createdAt: row.created_at,
  startedAt: row.started_at,
  finishedAt: row.finished_at
})

export const toRow = (run: Run) => ({
  id: run.id,
  workspace_id: run.workspaceId,
  status: run.status,
  subset_tags: run.subsetTags,
  trigger: run.trigger,
  requested_by: run.requestedBy,
  items_total: run.itemsTotal,
  items_analysed: run.itemsAnalysed,
  recommendations_count: run.recommendationsCount,
  alerts_count: run.alertsCount,
  error: run.error,
  version: run.version,
  created_at: toTimestamptz(run.createdAt),
  started_at: toNullableTimestamptz(run.startedAt),
  finished_at: toNullableTimestamptz(run.finishedAt)
})

const changes = transitionChanges(RunRow, toRow)

/**
 * Two claimers that saw no held run of a workspace at once and took two of its runs: the unique
 * index refuses the second hold. The loser claims again, and then sees the winner's hold.
 */
const isLostHoldRace = (error: PgFailure): boolean =>
  error._tag === "SqlError" &&
  error.reason._tag === "UniqueViolation" &&
  error.reason.constraint === "runs_held_workspace_key"

/** Each lost race means another claimer won a hold: more losses in a row than workers is not a race. */
const maxHoldRaces = 10

const one = firstOf(RunRow, toDomain)
const all = rowsOf(RunRow, toDomain)

export const layer: Layer.Layer<RunRepository, never, SqlClient.SqlClient> = Layer.effect(
  RunRepository,
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const columns = sql.literal(columnsOf(RunRow))
    const claimedColumns = sql.literal(columnsOf(RunRow, "r"))

    // Workers serve every workspace, so the claim is the one query without a workspace filter.
    // SKIP LOCKED: concurrent claimers pass over a run another is taking instead of waiting for it.
    // A workspace's runs are held one at a time (migration 0005): a queued run waits while another
    // run of its workspace is held, even past its lease, so that a dead worker's run is taken over
    // and finished before the next one starts.
    const claim = (owner: string, now: number, leaseUntil: number) => sql`
      WITH next AS (
        SELECT id FROM runs candidate
        WHERE status IN ('queued', 'running')
          AND (lease_expires_at IS NULL OR lease_expires_at <= ${toTimestamptz(now)})
          AND NOT EXISTS (
            SELECT 1 FROM runs held
            WHERE held.workspace_id = candidate.workspace_id AND held.id <> candidate.id
              AND held.status IN ('queued', 'running') AND held.lease_owner IS NOT NULL
          )
        ORDER BY created_at, id
        LIMIT 1
        FOR UPDATE SKIP LOCKED
      )
      UPDATE runs r SET lease_owner = ${owner}, lease_expires_at = ${toTimestamptz(leaseUntil)}
      FROM next WHERE r.id = next.id
      RETURNING ${claimedColumns}`

    return RunRepository.of({
      insert: (run) =>
        sql`INSERT INTO runs ${sql.insert(toRow(run))}`.pipe(
          asRepositoryWith("RunRepository.insert", () => Effect.void)
        ),
      get: (workspaceId, id) =>
        sql`SELECT ${columns} FROM runs WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          asRepositoryWith("RunRepository.get", one)
        ),
      find: (id) => sql`SELECT ${columns} FROM runs WHERE id = ${id}`.pipe(asRepositoryWith("RunRepository.find", one)),
      list: (workspaceId, filter, page) =>
        sql`
          SELECT ${columns} FROM runs
          WHERE workspace_id = ${workspaceId}
            AND ${filter.status === null ? sql.literal("TRUE") : sql`status = ${filter.status}`}
            AND ${afterCursor(sql, page.cursor)}
          ORDER BY created_at DESC, id DESC
          LIMIT ${page.limit + 1}`.pipe(asPage("RunRepository.list", all, page.limit)),
      update: updateOn(sql, {
        table: "runs",
        columns,
        first: { reads: "rows", decode: one },
        changes,
        operation: "RunRepository.update"
      }),
      // Progress is bookkeeping, not a transition: it does not bump the version. Only a running run
      // takes it, so a worker that lost its lease cannot overwrite the counts of a finished one.
      recordProgress: (workspaceId, id, progress) =>
        sql`
          UPDATE runs SET
            items_total = ${progress.itemsTotal},
            items_analysed = ${progress.itemsAnalysed},
            recommendations_count = ${progress.recommendationsCount},
            alerts_count = ${progress.alertsCount}
          WHERE workspace_id = ${workspaceId} AND id = ${id} AND status = 'running'`.pipe(
          asRepositoryWith("RunRepository.recordProgress", () => Effect.void)
        ),
      countCreatedSince: (workspaceId, since) =>
        sql`SELECT count(*) AS count FROM runs WHERE workspace_id = ${workspaceId} AND created_at >= ${toTimestamptz(since)}`.pipe(
          asRepositoryWith("RunRepository.countCreatedSince", countOf)
        ),
      claimNext: (owner, now, leaseUntil) =>
        claim(owner, now, leaseUntil).pipe(
          Effect.retry({ while: isLostHoldRace, times: maxHoldRaces }),
          asRepositoryWith("RunRepository.claimNext", one)
        ),
      heartbeat: (id, owner, leaseUntil) =>
        sql`
          UPDATE runs SET lease_expires_at = ${toTimestamptz(leaseUntil)}
          WHERE id = ${id} AND lease_owner = ${owner}
          RETURNING id`.pipe(Effect.map(touchedAny), asRepository("RunRepository.heartbeat"))
    })
  })
)
