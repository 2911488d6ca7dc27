import { Effect, HashMap, Layer, Option } from "effect"
import { OAuthGrantRepository } from "../oauth/OAuthGrantRepository.ts"
import { changeRow, changeRowBefore, getRow, insertNew, oldestFirst, rowsWhere } from "./internal/MemoryRows.ts"
import { oauthGrantsTable, oauthTokensTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

export const layer: Layer.Layer<OAuthGrantRepository, never, MemoryDatabase> = Layer.effect(
  OAuthGrantRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    return OAuthGrantRepository.of({
      consent: (fresh) =>
        db.modify((tables) => {
          const rows = oauthGrantsTable.rows(tables)
          const live = rowsWhere(
            rows,
            (grant) =>
              grant.revokedAt === null &&
              grant.userId === fresh.userId &&
              grant.clientId === fresh.clientId &&
              grant.workspaceId === fresh.workspaceId
          )[0]
          const stored = live === undefined ? fresh : { ...live, scopes: fresh.scopes, resource: fresh.resource }
          return [stored, oauthGrantsTable.withRows(tables, HashMap.set(rows, stored.id, stored))]
        }),
      get: (id) => getRow(db, oauthGrantsTable, id),
      list: (filter) =>
        db.read((tables) =>
          rowsWhere(
            oauthGrantsTable.rows(tables),
            (grant) =>
              (filter.userId === undefined || grant.userId === filter.userId) &&
              (filter.workspaceId === undefined || grant.workspaceId === filter.workspaceId)
          )
            .sort(oldestFirst)
            .reverse()
        ),
      revoke: (id, at) =>
        changeRow(db, oauthGrantsTable, id, (grant) =>
          grant.revokedAt === null ? Option.some({ ...grant, revokedAt: at }) : Option.none()
        ),
      touch: (id, at) =>
        Effect.asVoid(
          changeRow(db, oauthGrantsTable, id, (grant) =>
            grant.lastUsedAt === null || grant.lastUsedAt < at
              ? Option.some({ ...grant, lastUsedAt: at })
              : Option.none()
          )
        ),
      insertToken: (tokenHash, token) =>
        insertNew(db, oauthTokensTable, tokenHash, token, "OAuthGrantRepository.insertToken"),
      findToken: (tokenHash) => getRow(db, oauthTokensTable, tokenHash),
      useToken: (tokenHash, at) =>
        changeRowBefore(db, oauthTokensTable, tokenHash, (token) =>
          token.usedAt === null ? Option.some({ ...token, usedAt: at }) : Option.none()
        ),
      revokeToken: (tokenHash, at) =>
        changeRow(db, oauthTokensTable, tokenHash, (token) =>
          token.revokedAt === null ? Option.some({ ...token, revokedAt: at }) : Option.none()
        ),
      deleteDeadTokens: (now) =>
        db.modify((tables) => {
          const grants = oauthGrantsTable.rows(tables)
          const tokens = oauthTokensTable.rows(tables)
          const kept = HashMap.filter(tokens, (token) => {
            const grant = HashMap.get(grants, token.grantId)
            return (
              token.expiresAt > now &&
              (token.revokedAt === null || token.revokedAt > now) &&
              Option.isSome(grant) &&
              (grant.value.revokedAt === null || grant.value.revokedAt > now)
            )
          })
          return [HashMap.size(tokens) - HashMap.size(kept), oauthTokensTable.withRows(tables, kept)]
        })
    })
  })
)
