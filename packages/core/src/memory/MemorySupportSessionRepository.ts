import { Effect, HashMap, Layer, Option } from "effect"
import { isSupportSessionActive } from "../workspaces/SupportSession.ts"
import { SupportSessionRepository } from "../workspaces/SupportSessionRepository.ts"
import { insertNew, rowsWhere } from "./internal/MemoryRows.ts"
import { supportSessionsTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

export const layer: Layer.Layer<SupportSessionRepository, never, MemoryDatabase> = Layer.effect(
  SupportSessionRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    return SupportSessionRepository.of({
      // Several may overlap; the one that started last is the one to show.
      activeFor: (workspaceId, now) =>
        db.read((tables) =>
          Option.fromUndefinedOr(
            rowsWhere(
              tables.supportSessions,
              (session) => session.workspaceId === workspaceId && isSupportSessionActive(session, now)
            ).sort((a, b) => b.startedAt - a.startedAt)[0]
          )
        ),
      open: (session) => insertNew(db, supportSessionsTable, session.id, session, "SupportSessionRepository.open"),
      // Open = not closed and not yet expired; an expired session has ended on its own.
      close: (workspaceId, now) =>
        db.modify((tables) => {
          const closing = rowsWhere(
            tables.supportSessions,
            (session) => session.workspaceId === workspaceId && session.closedAt === null && now < session.expiresAt
          )
          const supportSessions = closing.reduce(
            (rows, session) => HashMap.set(rows, session.id, { ...session, closedAt: now }),
            tables.supportSessions
          )
          return [closing.length, { ...tables, supportSessions }]
        })
    })
  })
)
