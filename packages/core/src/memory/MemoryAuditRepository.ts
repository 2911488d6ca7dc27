import { Effect, Layer } from "effect"
import { AuditRepository } from "../audit/AuditRepository.ts"
import { pageBy } from "./internal/MemoryPaging.ts"
import { insertNew, rowsWhere } from "./internal/MemoryRows.ts"
import { auditEventsTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

export const layer: Layer.Layer<AuditRepository, never, MemoryDatabase> = Layer.effect(
  AuditRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    return AuditRepository.of({
      record: (event) => insertNew(db, auditEventsTable, event.id, event, "AuditRepository.record"),
      list: (workspaceId, page) =>
        db.read((tables) =>
          pageBy(
            rowsWhere(tables.auditEvents, (event) => event.workspaceId === workspaceId),
            (event) => ({ createdAt: event.at, id: event.id }),
            page
          )
        )
    })
  })
)
