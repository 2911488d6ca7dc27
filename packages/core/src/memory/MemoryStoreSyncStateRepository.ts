import { Effect, Layer } from "effect"
import { StoreSyncStateRepository } from "../stores/StoreSyncStateRepository.ts"
import { getRow, putRow } from "./internal/MemoryRows.ts"
import { storeSyncStatesTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

export const layer: Layer.Layer<StoreSyncStateRepository, never, MemoryDatabase> = Layer.effect(
  StoreSyncStateRepository,
  Effect.map(MemoryDatabase, (db) =>
    StoreSyncStateRepository.of({
      get: (workspaceId) => getRow(db, storeSyncStatesTable, workspaceId),
      save: (state) => putRow(db, storeSyncStatesTable, state.workspaceId, state)
    })
  )
)
