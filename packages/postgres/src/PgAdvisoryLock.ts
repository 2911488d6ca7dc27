import type { RepositoryError } from "@margin/core/kernel/Errors"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { isSqlError } from "effect/sql/SqlError"
import { toRepositoryError } from "./PgRepositoryError.ts"

/**
 * Runs `effect` in one transaction that first takes the transaction-scoped advisory lock `name`
 * (pg_advisory_xact_lock): whoever asks for the same name, in this process or another, waits until
 * that transaction ends, then sees everything it committed. The lock goes with the transaction, so
 * a process that dies cannot leave it held. What runs inside joins the transaction (repositories
 * nest as savepoints): keep it to the database work that must not interleave, and fork nothing
 * that needs a connection of its own (the embedded database has one).
 */
export const exclusively =
  (name: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | RepositoryError, R | SqlClient.SqlClient> =>
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql`SELECT pg_advisory_xact_lock(hashtext(${name}))`.pipe(
        Effect.andThen(effect),
        sql.withTransaction,
        Effect.mapError((error) => (isSqlError(error) ? toRepositoryError(`exclusively(${name})`)(error) : error))
      )
    )
