import { DeletionRequestId, UserId } from "@margin/core/kernel/Ids"
import { type DeletionRequest, DeletionState } from "@margin/core/workspaces/DeletionRequest"
import { DeletionRequestRepository } from "@margin/core/workspaces/DeletionRequestRepository"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Instant, toTimestamptz } from "./PgColumns.ts"
import { asRepository, asRepositoryWith } from "./PgRepositoryError.ts"
import { columnsOf, firstOf, touchedAny } from "./PgRows.ts"

/** A row of `deletion_requests`: a user's, across workspaces, so it has no workspace_id. */
export const DeletionRequestRow = Schema.Struct({
  id: DeletionRequestId,
  user_id: UserId,
  state: DeletionState,
  scheduled_at: Instant,
  effective_at: Instant
})
export type DeletionRequestRow = typeof DeletionRequestRow.Type

export const toDomain = (row: DeletionRequestRow): DeletionRequest => ({
  id: row.id,
  userId: row.user_id,
  state: row.state,
  scheduledAt: row.scheduled_at,
  effectiveAt: row.effective_at
})

export const toRow = (request: DeletionRequest) => ({
  id: request.id,
  user_id: request.userId,
  state: request.state,
  scheduled_at: toTimestamptz(request.scheduledAt),
  effective_at: toTimestamptz(request.effectiveAt)
})

const one = firstOf(DeletionRequestRow, toDomain)

export const layer: Layer.Layer<DeletionRequestRepository, never, SqlClient.SqlClient> = Layer.effect(
  DeletionRequestRepository,
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const columns = sql.literal(columnsOf(DeletionRequestRow))
    return DeletionRequestRepository.of({
      // At most one is active (a partial unique index); the latest scheduled wins should that ever change.
      activeFor: (userId) =>
        sql`
          SELECT ${columns} FROM deletion_requests
          WHERE user_id = ${userId} AND state IN ('pending', 'blocked')
          ORDER BY scheduled_at DESC, id DESC
          LIMIT 1`.pipe(asRepositoryWith("DeletionRequestRepository.activeFor", one)),
      insert: (request) =>
        sql`INSERT INTO deletion_requests ${sql.insert(toRow(request))}`.pipe(
          asRepositoryWith("DeletionRequestRepository.insert", () => Effect.void)
        ),
      setState: (userId, state) =>
        sql`
          UPDATE deletion_requests SET state = ${state}, updated_at = now()
          WHERE user_id = ${userId} AND state IN ('pending', 'blocked')
          RETURNING id`.pipe(Effect.map(touchedAny), asRepository("DeletionRequestRepository.setState"))
    })
  })
)
