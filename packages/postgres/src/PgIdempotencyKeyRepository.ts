import { IdempotencyKeyRepository, type IdempotentRequest } from "@margin/core/kernel/IdempotencyKeyRepository"
import { WorkspaceId } from "@margin/core/kernel/Ids"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Instant, toTimestamptz } from "./PgColumns.ts"
import { asRepository } from "./PgRepositoryError.ts"
import { columnsOf, firstOf } from "./PgRows.ts"

const IdempotencyKeyRow = Schema.Struct({
  workspace_id: WorkspaceId,
  operation: Schema.String,
  key: Schema.String,
  fingerprint: Schema.String,
  resource_id: Schema.String,
  created_at: Instant
})
type IdempotencyKeyRow = typeof IdempotencyKeyRow.Type

const toDomain = (row: IdempotencyKeyRow): IdempotentRequest => ({
  workspaceId: row.workspace_id,
  operation: row.operation,
  key: row.key,
  fingerprint: row.fingerprint,
  resourceId: row.resource_id,
  createdAt: row.created_at
})

const oneRequest = firstOf(IdempotencyKeyRow, toDomain)

export const layer: Layer.Layer<IdempotencyKeyRepository, never, SqlClient.SqlClient> = Layer.effect(
  IdempotencyKeyRepository,
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const columns = sql.literal(columnsOf(IdempotencyKeyRow))
    return IdempotencyKeyRepository.of({
      find: (workspaceId, operation, key, since) =>
        sql`SELECT ${columns} FROM idempotency_keys
          WHERE workspace_id = ${workspaceId} AND operation = ${operation} AND key = ${key}
            AND created_at >= ${toTimestamptz(since)}`.pipe(
          Effect.flatMap(oneRequest),
          asRepository("IdempotencyKeyRepository.find")
        ),
      record: (request) =>
        sql`INSERT INTO idempotency_keys (workspace_id, operation, key, fingerprint, resource_id, created_at)
          VALUES (${request.workspaceId}, ${request.operation}, ${request.key}, ${request.fingerprint},
            ${request.resourceId}, ${toTimestamptz(request.createdAt)})
          ON CONFLICT (workspace_id, operation, key) DO UPDATE
            SET fingerprint = EXCLUDED.fingerprint, resource_id = EXCLUDED.resource_id, created_at = EXCLUDED.created_at`.pipe(
          Effect.asVoid,
          asRepository("IdempotencyKeyRepository.record")
        )
    })
  })
)
