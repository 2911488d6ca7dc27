import { Effect, HashMap, Layer, Option } from "effect"
import { UserRepository } from "../access/UserRepository.ts"
import { RepositoryError } from "../kernel/Errors.ts"
import { byCreatedAt, pageBy } from "./internal/MemoryPaging.ts"
import { changeRow, getRow, insertNew, rowsWhere } from "./internal/MemoryRows.ts"
import { usersTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

/** E-mail addresses compare without regard to case, as mail systems treat them. */
const sameEmail = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

export const layer: Layer.Layer<UserRepository, never, MemoryDatabase> = Layer.effect(
  UserRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const findByEmail = (email: string) =>
      db.read((tables) => Option.fromUndefinedOr(rowsWhere(tables.users, (user) => sameEmail(user.email, email))[0]))
    return UserRepository.of({
      get: (id) => getRow(db, usersTable, id),
      findByEmail,
      // One account per e-mail address, like the unique index of the Postgres schema.
      insert: (user) =>
        db.transaction(
          Effect.gen(function* () {
            if (Option.isSome(yield* findByEmail(user.email))) {
              return yield* new RepositoryError({
                operation: "UserRepository.insert",
                message: `a user with e-mail ${user.email} exists`
              })
            }
            yield* insertNew(db, usersTable, user.id, user, "UserRepository.insert")
          })
        ),
      markDeleted: (id, at) =>
        changeRow(db, usersTable, id, (user) =>
          user.deletedAt === null ? Option.some({ ...user, deletedAt: at }) : Option.none()
        ),
      setEmailConfirmed: (id, emailConfirmed) =>
        changeRow(db, usersTable, id, (user) => Option.some({ ...user, emailConfirmed })),
      list: (page) => db.read((tables) => pageBy(HashMap.values(tables.users), byCreatedAt, page))
    })
  })
)
