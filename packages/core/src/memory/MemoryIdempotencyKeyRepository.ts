import { Effect, HashMap, Layer, Option } from "effect"
import { IdempotencyKeyRepository } from "../kernel/IdempotencyKeyRepository.ts"
import { idempotencyKeyOf, idempotentRequestsTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

export const layer: Layer.Layer<IdempotencyKeyRepository, never, MemoryDatabase> = Layer.effect(
  IdempotencyKeyRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    return IdempotencyKeyRepository.of({
      find: (workspaceId, operation, key, since) =>
        db.read((tables) =>
          Option.filter(
            HashMap.get(idempotentRequestsTable.rows(tables), idempotencyKeyOf(workspaceId, operation, key)),
            (request) => request.createdAt >= since
          )
        ),
      record: (request) =>
        db.modify((tables) => [
          undefined,
          idempotentRequestsTable.withRows(
            tables,
            HashMap.set(
              idempotentRequestsTable.rows(tables),
              idempotencyKeyOf(request.workspaceId, request.operation, request.key),
              request
            )
          )
        ])
    })
  })
)
