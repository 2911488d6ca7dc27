import type { RepositoryError } from "@margin/core/kernel/Errors"
import { Transactor } from "@margin/core/kernel/Transactor"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { isSqlError } from "effect/sql/SqlError"
import { toRepositoryError } from "./PgRepositoryError.ts"

const toTransactionError = toRepositoryError("Transactor.transaction")

/**
 * `sql.withTransaction`: one connection and one BEGIN for everything inside, which the repositories
 * join; a nested transaction is a savepoint. A failure, a defect or an interruption rolls back.
 * Only the database's own errors (BEGIN, COMMIT) become RepositoryError; the effect's are kept.
 */
export const layer: Layer.Layer<Transactor, never, SqlClient.SqlClient> = Layer.effect(
  Transactor,
  Effect.map(SqlClient.SqlClient, (sql) =>
    Transactor.of({
      transaction: <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | RepositoryError, R> =>
        Effect.mapError(sql.withTransaction(effect), (error) => (isSqlError(error) ? toTransactionError(error) : error))
    })
  )
)
