import { Effect, HashMap, Layer } from "effect"
import { LoginLinkRepository } from "../oauth/LoginLinkRepository.ts"
import { deleteRowsWhere } from "./internal/MemoryRows.ts"
import { loginLinksTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

export const layer: Layer.Layer<LoginLinkRepository, never, MemoryDatabase> = Layer.effect(
  LoginLinkRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    return LoginLinkRepository.of({
      use: (nonceHash, expiresAt, at) =>
        db.modify((tables) => {
          const rows = loginLinksTable.rows(tables)
          return HashMap.has(rows, nonceHash)
            ? [false, tables]
            : [true, loginLinksTable.withRows(tables, HashMap.set(rows, nonceHash, { expiresAt, usedAt: at }))]
        }),
      deleteExpired: (now) => deleteRowsWhere(db, loginLinksTable, (link) => link.expiresAt <= now)
    })
  })
)
