import { CatalogItemId, RecommendationId, WorkspaceId, WriteBackId } from "@margin/core/kernel/Ids"
import { CurrencyCode } from "@margin/core/kernel/Money"
import { type WriteBack, type WriteBackPayload, WriteBackStatus } from "@margin/core/writeback/WriteBack"
import { WriteBackOutbox } from "@margin/core/writeback/WriteBackOutbox"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { Fragment } from "effect/sql/Statement"
import { Instant, Int8, NullableInstant, toNullableTimestamptz, toTimestamptz } from "./PgColumns.ts"
import { afterCursor, asPage } from "./PgPaging.ts"
import { asRepository, asRepositoryWith } from "./PgRepositoryError.ts"
import { columnsOf, firstOf, rowsOf, touchedAny } from "./PgRows.ts"

/** The jsonb `payload` of an outbox row: what the store is asked to do. */
export const PayloadRow = Schema.Struct({
  item_id: CatalogItemId,
  sku: Schema.String,
  store_product_ref: Schema.NullOr(Schema.String),
  store_variant_ref: Schema.NullOr(Schema.String),
  currency: CurrencyCode,
  old_price: Schema.Int,
  new_price: Schema.Int
})
export type PayloadRow = typeof PayloadRow.Type

/** A row of `write_backs` as the domain sees it; the lease columns stay in SQL. */
export const WriteBackRow = Schema.Struct({
  id: WriteBackId,
  workspace_id: WorkspaceId,
  recommendation_id: RecommendationId,
  idempotency_key: Schema.String,
  payload: PayloadRow,
  status: WriteBackStatus,
  attempts: Int8,
  next_attempt_at: Instant,
  last_error: Schema.NullOr(Schema.String),
  applied_at: NullableInstant,
  created_at: Instant,
  undo_of: Schema.NullOr(WriteBackId),
  undone_by: Schema.NullOr(Schema.String)
})
export type WriteBackRow = typeof WriteBackRow.Type

const payloadToDomain = (payload: PayloadRow): WriteBackPayload => ({
  itemId: payload.item_id,
  sku: payload.sku,
  storeProductRef: payload.store_product_ref,
  storeVariantRef: payload.store_variant_ref,
  currency: payload.currency,
  oldPrice: payload.old_price,
  newPrice: payload.new_price
})

const payloadToRow = (payload: WriteBackPayload): PayloadRow => ({
  item_id: payload.itemId,
  sku: payload.sku,
  store_product_ref: payload.storeProductRef,
  store_variant_ref: payload.storeVariantRef,
  currency: payload.currency,
  old_price: payload.oldPrice,
  new_price: payload.newPrice
})

export const toDomain = (row: WriteBackRow): WriteBack => ({
  id: row.id,
  workspaceId: row.workspace_id,
  recommendationId: row.recommendation_id,
  idempotencyKey: row.idempotency_key,
  payload: payloadToDomain(row.payload),
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.next_attempt_at,
  lastError: row.last_error,
  appliedAt: row.applied_at,
  createdAt: row.created_at,
  ...(row.undo_of === null || row.undone_by === null ? {} : { undo: { of: row.undo_of, by: row.undone_by } })
})

export const toRow = (writeBack: WriteBack) => ({
  id: writeBack.id,
  workspace_id: writeBack.workspaceId,
  recommendation_id: writeBack.recommendationId,
  idempotency_key: writeBack.idempotencyKey,
  // A jsonb column takes the JSON text; the statement gives the parameter its type.
  payload: JSON.stringify(payloadToRow(writeBack.payload)),
  status: writeBack.status,
  attempts: writeBack.attempts,
  next_attempt_at: toTimestamptz(writeBack.nextAttemptAt),
  last_error: writeBack.lastError,
  applied_at: toNullableTimestamptz(writeBack.appliedAt),
  created_at: toTimestamptz(writeBack.createdAt),
  updated_at: toTimestamptz(writeBack.createdAt),
  undo_of: writeBack.undo?.of ?? null,
  undone_by: writeBack.undo?.by ?? null
})

/** Longest-waiting first: the order claims take rows in (RETURNING itself keeps no order). */
const dueOrder = (a: WriteBack, b: WriteBack): number =>
  a.nextAttemptAt - b.nextAttemptAt || a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

const one = firstOf(WriteBackRow, toDomain)
const all = rowsOf(WriteBackRow, toDomain)
const Depth = Schema.Struct({ count: Int8, oldest: NullableInstant })
const depthOf = firstOf(Depth, (row) => row)

/**
 * The outbox of approvals. Delivery workers serve every workspace, so claims and the lease
 * holder's updates go by row id, not by workspace; reads for a caller go by workspace.
 */
export const layer: Layer.Layer<WriteBackOutbox, never, SqlClient.SqlClient> = Layer.effect(
  WriteBackOutbox,
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const columns = sql.literal(columnsOf(WriteBackRow))
    const claimedColumns = sql.literal(columnsOf(WriteBackRow, "w"))

    /** Pending and due, or in flight with a lease that ran out (its deliverer died). */
    const isDue = (now: number): Fragment => {
      const at = toTimestamptz(now)
      return sql`(
        (status = 'pending' AND next_attempt_at <= ${at})
        OR (status = 'in_flight' AND (lease_expires_at IS NULL OR lease_expires_at <= ${at}))
      )`
    }

    /**
     * Takes the rows `which` selects for `owner`: in flight, one more attempt counted, leased until
     * `leaseUntil`. SKIP LOCKED: concurrent claimers pass over rows another is taking.
     */
    const claimWhere = (which: Fragment, limit: number, owner: string, leaseUntil: number) =>
      sql`
        WITH due AS (
          SELECT id FROM write_backs
          WHERE ${which}
          ORDER BY next_attempt_at, created_at, id
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED
        )
        UPDATE write_backs w
        SET status = 'in_flight', attempts = w.attempts + 1, lease_owner = ${owner},
            lease_expires_at = ${toTimestamptz(leaseUntil)}, updated_at = now()
        FROM due WHERE w.id = due.id
        RETURNING ${claimedColumns}`.pipe(
        Effect.flatMap(all),
        Effect.map((rows) => [...rows].sort(dueOrder))
      )

    /** Ends an attempt of `owner`'s; false when the row is not in flight under its lease. */
    const finish = (operation: string, id: WriteBackId, owner: string, changes: Record<string, unknown>) =>
      sql`
        UPDATE write_backs
        SET ${sql.update({ ...changes, lease_owner: null, lease_expires_at: null })}, updated_at = now()
        WHERE id = ${id} AND status = 'in_flight' AND lease_owner = ${owner}
        RETURNING id`.pipe(Effect.map(touchedAny), asRepository(operation))

    return WriteBackOutbox.of({
      // One row per recommendation's approval and one per undone write-back: the first wins, a repeat is a no-op.
      enqueue: (writeBack) =>
        (writeBack.undo === undefined
          ? sql`
              INSERT INTO write_backs ${sql.insert(toRow(writeBack))}
              ON CONFLICT (recommendation_id) WHERE undo_of IS NULL DO NOTHING`
          : sql`
              INSERT INTO write_backs ${sql.insert(toRow(writeBack))}
              ON CONFLICT (undo_of) WHERE undo_of IS NOT NULL DO NOTHING`
        ).pipe(asRepositoryWith("WriteBackOutbox.enqueue", () => Effect.void)),
      getByRecommendation: (workspaceId, recommendationId) =>
        sql`
          SELECT ${columns} FROM write_backs
          WHERE workspace_id = ${workspaceId} AND recommendation_id = ${recommendationId} AND undo_of IS NULL`.pipe(
          asRepositoryWith("WriteBackOutbox.getByRecommendation", one)
        ),
      getUndoOf: (workspaceId, id) =>
        sql`
          SELECT ${columns} FROM write_backs
          WHERE workspace_id = ${workspaceId} AND undo_of = ${id}`.pipe(
          asRepositoryWith("WriteBackOutbox.getUndoOf", one)
        ),
      listApprovals: (workspaceId, page) =>
        sql`
          SELECT ${columns} FROM write_backs
          WHERE workspace_id = ${workspaceId} AND undo_of IS NULL AND ${afterCursor(sql, page.cursor)}
          ORDER BY created_at DESC, id DESC
          LIMIT ${page.limit + 1}`.pipe(asPage("WriteBackOutbox.listApprovals", all, page.limit)),
      claimDue: (owner, now, leaseUntil, limit) =>
        claimWhere(isDue(now), limit, owner, leaseUntil).pipe(asRepository("WriteBackOutbox.claimDue")),
      claim: (id, owner, now, leaseUntil) =>
        claimWhere(sql`id = ${id} AND ${isDue(now)}`, 1, owner, leaseUntil).pipe(
          Effect.map((rows) => Option.fromUndefinedOr(rows[0])),
          asRepository("WriteBackOutbox.claim")
        ),
      markApplied: (id, owner, now) =>
        finish("WriteBackOutbox.markApplied", id, owner, { status: "applied", applied_at: toTimestamptz(now) }),
      scheduleRetry: (id, owner, nextAttemptAt, error) =>
        finish("WriteBackOutbox.scheduleRetry", id, owner, {
          status: "pending",
          next_attempt_at: toTimestamptz(nextAttemptAt),
          last_error: error
        }),
      markFailed: (id, owner, error) =>
        finish("WriteBackOutbox.markFailed", id, owner, { status: "failed", last_error: error }),
      cancelPending: (workspaceId, id, error) =>
        sql`
          UPDATE write_backs SET status = 'failed', last_error = ${error}, updated_at = now()
          WHERE workspace_id = ${workspaceId} AND id = ${id} AND status = 'pending'
          RETURNING id`.pipe(Effect.map(touchedAny), asRepository("WriteBackOutbox.cancelPending")),
      depth: (now) =>
        sql`
          SELECT count(*) AS count, min(created_at) AS oldest FROM write_backs
          WHERE status IN ('pending', 'in_flight')`.pipe(
          Effect.flatMap(depthOf),
          Effect.map(
            Option.match({
              onNone: () => ({ count: 0, oldestAgeMs: null }),
              onSome: ({ count, oldest }) => ({ count, oldestAgeMs: oldest === null ? null : now - oldest })
            })
          ),
          asRepository("WriteBackOutbox.depth")
        )
    })
  })
)
