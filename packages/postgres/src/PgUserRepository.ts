import type { User } from "@margin/core/access/User"
import { UserRepository } from "@margin/core/access/UserRepository"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { fastUserRow, UserRow } from "./PgCallerRows.ts"
import { toNullableTimestamptz, toTimestamptz } from "./PgColumns.ts"
import { fixedSql } from "./PgFixedSql.ts"
import { afterCursor, asPage } from "./PgPaging.ts"
import { asRepository, asRepositoryWith } from "./PgRepositoryError.ts"
import { columnsOf, firstOf, rowsOf, touchedAny } from "./PgRows.ts"

export const toDomain = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  emailConfirmed: row.email_confirmed,
  deletedAt: row.deleted_at,
  createdAt: row.created_at
})

export const toRow = (user: User) => ({
  id: user.id,
  email: user.email,
  email_confirmed: user.emailConfirmed,
  deleted_at: toNullableTimestamptz(user.deletedAt),
  created_at: toTimestamptz(user.createdAt)
})

const one = firstOf(UserRow, toDomain, fastUserRow)
const all = rowsOf(UserRow, toDomain, fastUserRow)

export const layer: Layer.Layer<UserRepository, never, SqlClient.SqlClient> = Layer.effect(
  UserRepository,
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const columns = sql.literal(columnsOf(UserRow))
    // Every mutation by token reads its issuer: compiled once.
    const fixed = fixedSql(sql)
    return UserRepository.of({
      get: (id) =>
        fixed`SELECT ${columns} FROM users WHERE id = ${id}`.pipe(asRepositoryWith("UserRepository.get", one)),
      // E-mail addresses compare without regard to case, as mail systems treat them (the unique index is on lower(email)).
      findByEmail: (email) =>
        sql`SELECT ${columns} FROM users WHERE lower(email) = lower(${email})`.pipe(
          asRepositoryWith("UserRepository.findByEmail", one)
        ),
      insert: (user) =>
        sql`INSERT INTO users ${sql.insert(toRow(user))}`.pipe(
          asRepositoryWith("UserRepository.insert", () => Effect.void)
        ),
      // True only for the call that deletes: a second one keeps the first instant.
      markDeleted: (id, at) =>
        sql`UPDATE users SET deleted_at = ${toTimestamptz(at)} WHERE id = ${id} AND deleted_at IS NULL RETURNING id`.pipe(
          Effect.map(touchedAny),
          asRepository("UserRepository.markDeleted")
        ),
      setEmailConfirmed: (id, confirmed) =>
        sql`UPDATE users SET email_confirmed = ${confirmed} WHERE id = ${id} RETURNING id`.pipe(
          Effect.map(touchedAny),
          asRepository("UserRepository.setEmailConfirmed")
        ),
      // Operators only: no index serves it, so each page reads the table (a top-N sort of every user).
      list: (page) =>
        sql`
          SELECT ${columns} FROM users
          WHERE ${afterCursor(sql, page.cursor)}
          ORDER BY created_at DESC, id DESC
          LIMIT ${page.limit + 1}`.pipe(asPage("UserRepository.list", all, page.limit))
    })
  })
)
