import { Effect, Layer, Option } from "effect"
import { CatalogImportRepository } from "../catalog/CatalogImportRepository.ts"
import { getRow, putRow } from "./internal/MemoryRows.ts"
import { catalogImportsTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

export const layer: Layer.Layer<CatalogImportRepository, never, MemoryDatabase> = Layer.effect(
  CatalogImportRepository,
  Effect.map(MemoryDatabase, (db) =>
    CatalogImportRepository.of({
      insert: (record) => putRow(db, catalogImportsTable, record.id, record),
      get: (workspaceId, id) =>
        getRow(db, catalogImportsTable, id).pipe(
          Effect.map(Option.filter((record) => record.workspaceId === workspaceId))
        )
    })
  )
)
