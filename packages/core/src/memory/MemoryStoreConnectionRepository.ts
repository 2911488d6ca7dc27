import { Effect, Layer, Option } from "effect"
import { StoreConnectionRepository } from "../stores/StoreConnectionRepository.ts"
import { pageBy } from "./internal/MemoryPaging.ts"
import { changeRow, getRow, putRow, rowsWhere } from "./internal/MemoryRows.ts"
import { storeConnectionsTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

export const layer: Layer.Layer<StoreConnectionRepository, never, MemoryDatabase> = Layer.effect(
  StoreConnectionRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    return StoreConnectionRepository.of({
      get: (workspaceId) =>
        getRow(db, storeConnectionsTable, workspaceId).pipe(Effect.map(Option.map((row) => row.connection))),
      connect: (connection, credentials) =>
        putRow(db, storeConnectionsTable, connection.workspaceId, { connection, credentials }),
      // The row stays (status `disconnected`) so that the workspace's history still names its store.
      disconnect: (workspaceId) =>
        changeRow(db, storeConnectionsTable, workspaceId, (row) =>
          row.connection.status === "connected"
            ? Option.some({ connection: { ...row.connection, status: "disconnected" }, credentials: null })
            : Option.none()
        ),
      list: ({ status }, page) =>
        db.read((tables) =>
          pageBy(
            rowsWhere(tables.storeConnections, ({ connection }) => status === null || connection.status === status).map(
              (row) => row.connection
            ),
            (connection) => ({ createdAt: connection.connectedAt, id: connection.workspaceId }),
            page
          )
        )
    })
  })
)
