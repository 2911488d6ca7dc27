import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** A migration as a list of statements, run in order (one statement per message: the extended protocol takes one). */
export const runStatements = (statements: ReadonlyArray<string>): Effect.Effect<void, unknown, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    for (const statement of statements) yield* sql.unsafe(statement)
  })
