import { Effect, Layer } from "effect"
import { SyncScheduleRepository } from "../schedules/SyncScheduleRepository.ts"
import { getRow, putRow, rowsWhere } from "./internal/MemoryRows.ts"
import { syncSchedulesTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

export const layer: Layer.Layer<SyncScheduleRepository, never, MemoryDatabase> = Layer.effect(
  SyncScheduleRepository,
  Effect.map(MemoryDatabase, (db) =>
    SyncScheduleRepository.of({
      get: (workspaceId) => getRow(db, syncSchedulesTable, workspaceId),
      save: (schedule) => putRow(db, syncSchedulesTable, schedule.workspaceId, schedule),
      listActive: () =>
        db.read((tables) => rowsWhere(syncSchedulesTable.rows(tables), (schedule) => schedule.cadence !== "off"))
    })
  )
)
