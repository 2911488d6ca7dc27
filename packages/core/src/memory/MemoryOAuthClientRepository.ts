import { Effect, HashMap, Layer, Option } from "effect"
import { OAuthClientRepository } from "../oauth/OAuthClientRepository.ts"
import { getRow } from "./internal/MemoryRows.ts"
import { oauthClientsTable, oauthGrantsTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

export const layer: Layer.Layer<OAuthClientRepository, never, MemoryDatabase> = Layer.effect(
  OAuthClientRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    return OAuthClientRepository.of({
      get: (id) => getRow(db, oauthClientsTable, id),
      save: (client, secretHash) =>
        db.update((tables) => {
          const rows = oauthClientsTable.rows(tables)
          const createdAt = Option.match(HashMap.get(rows, client.id), {
            onNone: () => client.createdAt,
            onSome: (stored) => stored.client.createdAt
          })
          return oauthClientsTable.withRows(
            tables,
            HashMap.set(rows, client.id, { client: { ...client, createdAt }, secretHash })
          )
        }),
      deleteUnused: (createdBefore) =>
        db.modify((tables) => {
          const granted = new Set(Array.from(HashMap.values(oauthGrantsTable.rows(tables)), (grant) => grant.clientId))
          const rows = oauthClientsTable.rows(tables)
          const kept = HashMap.filter(
            rows,
            (stored) => stored.client.createdAt >= createdBefore || granted.has(stored.client.id)
          )
          return [HashMap.size(rows) - HashMap.size(kept), oauthClientsTable.withRows(tables, kept)]
        })
    })
  })
)
