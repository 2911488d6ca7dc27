import { Array as Arr, Effect, type Schema } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { countOf } from "./PgRows.ts"

/** Rows per statement: one json parameter each, so only the statement's size grows with it. */
const batchSize = 5_000

/**
 * One row as json_to_recordset reads it: the value of column n under the short key `cn`, and no
 * key at all for a null (a missing key reads as NULL). A run's rows are mostly the same long column
 * names and empty decision columns: this halves what is built, sent and parsed. Instants are
 * written once per distinct value (`instants`): JSON.stringify formats a Date every time it meets
 * one, and the rows of a batch share theirs; that formatting was most of the serialisation.
 */
const compact = (
  columns: ReadonlyArray<string>,
  instants: Map<number, string>,
  row: object
): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (let n = 0; n < columns.length; n++) {
    const value: unknown = Reflect.get(row, columns[n] ?? "")
    if (value === null || value === undefined) continue
    if (value instanceof Date) {
      const ms = value.getTime()
      const iso = instants.get(ms) ?? value.toISOString()
      instants.set(ms, iso)
      out[`c${n}`] = iso
    } else {
      out[`c${n}`] = value
    }
  }
  return out
}

/**
 * Inserts rows into `table` in statements of one `json` parameter each, unpacked by
 * `json_to_recordset` into the columns of `types` (column name -> SQL type, from code, never from
 * input): one parameter to bind and one short statement to parse per batch, where a multi-row
 * VALUES list binds rows x columns parameters. `ON CONFLICT DO NOTHING` without a target skips a
 * row that breaks any unique constraint. Answers how many rows were new. Run it in a transaction:
 * the batches of one call commit together.
 */
export const insertSkippingConflicts = <Row extends object>(
  sql: SqlClient.SqlClient,
  table: string,
  types: { readonly [K in keyof Row]: string },
  rows: ReadonlyArray<Row>
): Effect.Effect<number, SqlError | Schema.SchemaError> => {
  const columns = Object.keys(types)
  const names = sql.literal(columns.join(", "))
  const keys = sql.literal(columns.map((_, n) => `c${n}`).join(", "))
  const record = sql.literal(
    Object.values<string>(types)
      .map((type, n) => `c${n} ${type}`)
      .join(", ")
  )
  return Effect.reduce(
    Arr.chunksOf(rows, batchSize),
    () => 0,
    (inserted, batch) => {
      const instants = new Map<number, string>()
      return sql`
      WITH inserted AS (
        INSERT INTO ${sql.literal(table)} (${names})
        SELECT ${keys} FROM json_to_recordset(${JSON.stringify(batch.map((row) => compact(columns, instants, row)))}::json) AS r(${record})
        ON CONFLICT DO NOTHING
        RETURNING 1
      )
      SELECT count(*) AS count FROM inserted`.pipe(
        Effect.flatMap(countOf),
        Effect.map((count) => inserted + count)
      )
    }
  )
}
