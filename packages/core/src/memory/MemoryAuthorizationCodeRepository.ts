import { Effect, Layer, Option } from "effect"
import { AuthorizationCodeRepository } from "../oauth/AuthorizationCodeRepository.ts"
import { changeRowBefore, deleteRowsWhere, getRow, insertNew } from "./internal/MemoryRows.ts"
import { authorizationCodesTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

export const layer: Layer.Layer<AuthorizationCodeRepository, never, MemoryDatabase> = Layer.effect(
  AuthorizationCodeRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    return AuthorizationCodeRepository.of({
      insert: (codeHash, code) =>
        insertNew(db, authorizationCodesTable, codeHash, code, "AuthorizationCodeRepository.insert"),
      find: (codeHash) => getRow(db, authorizationCodesTable, codeHash),
      consume: (codeHash, at) =>
        changeRowBefore(db, authorizationCodesTable, codeHash, (code) =>
          code.usedAt === null ? Option.some({ ...code, usedAt: at }) : Option.none()
        ),
      deleteExpired: (now) => deleteRowsWhere(db, authorizationCodesTable, (code) => code.expiresAt <= now)
    })
  })
)
