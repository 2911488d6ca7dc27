import { Effect, HashMap, Layer, Option } from "effect"
import type { UserId } from "../kernel/Ids.ts"
import { type DeletionRequest, isDeletionActive } from "../workspaces/DeletionRequest.ts"
import { DeletionRequestRepository } from "../workspaces/DeletionRequestRepository.ts"
import { insertNew, rowsWhere } from "./internal/MemoryRows.ts"
import { deletionRequestsTable, type Tables } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

/** The user's pending or blocked request; the latest scheduled one if there were ever two. */
const activeRequest = (tables: Tables, userId: UserId): Option.Option<DeletionRequest> =>
  Option.fromUndefinedOr(
    rowsWhere(tables.deletionRequests, (request) => request.userId === userId && isDeletionActive(request)).sort(
      (a, b) => b.scheduledAt - a.scheduledAt
    )[0]
  )

export const layer: Layer.Layer<DeletionRequestRepository, never, MemoryDatabase> = Layer.effect(
  DeletionRequestRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    return DeletionRequestRepository.of({
      activeFor: (userId) => db.read((tables) => activeRequest(tables, userId)),
      insert: (request) =>
        insertNew(db, deletionRequestsTable, request.id, request, "DeletionRequestRepository.insert"),
      setState: (userId, state) =>
        db.modify((tables) => {
          const active = activeRequest(tables, userId)
          if (Option.isNone(active)) return [false, tables]
          const request = { ...active.value, state }
          return [true, { ...tables, deletionRequests: HashMap.set(tables.deletionRequests, request.id, request) }]
        })
    })
  })
)
