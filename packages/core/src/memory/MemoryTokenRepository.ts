import { Effect, Layer, Option } from "effect"
import { TokenRepository } from "../access/TokenRepository.ts"
import { byCreatedAt, pageBy } from "./internal/MemoryPaging.ts"
import { changeRow, getRow, insertNew, rowsWhere } from "./internal/MemoryRows.ts"
import { tokensTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

export const layer: Layer.Layer<TokenRepository, never, MemoryDatabase> = Layer.effect(
  TokenRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    return TokenRepository.of({
      findBySecretHash: (secretHash) =>
        db.read((tables) =>
          Option.fromUndefinedOr(rowsWhere(tables.tokens, (row) => row.secretHash === secretHash)[0]?.token)
        ),
      get: (id) => getRow(db, tokensTable, id).pipe(Effect.map(Option.map((row) => row.token))),
      insert: (token, secretHash) =>
        insertNew(db, tokensTable, token.id, { token, secretHash }, "TokenRepository.insert"),
      // True only for the call that revoked it: a second revoke keeps the first instant.
      revoke: (id, at) =>
        changeRow(db, tokensTable, id, (row) =>
          row.token.revokedAt === null ? Option.some({ ...row, token: { ...row.token, revokedAt: at } }) : Option.none()
        ),
      touch: (id, at) =>
        Effect.asVoid(
          changeRow(db, tokensTable, id, (row) => Option.some({ ...row, token: { ...row.token, lastUsedAt: at } }))
        ),
      listForWorkspace: (workspaceId, { issuedBy }, page) =>
        db.read((tables) =>
          pageBy(
            rowsWhere(
              tables.tokens,
              ({ token }) => token.workspaceId === workspaceId && (issuedBy === null || token.issuedBy === issuedBy)
            ).map((row) => row.token),
            byCreatedAt,
            page
          )
        )
    })
  })
)
