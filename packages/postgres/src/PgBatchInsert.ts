import { Array as Arr, Effect, type Schema } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import type { Fragment } from "effect/sql/Statement"
import { countOf } from "./PgRows.ts"

/** Rows per statement: its parameters grow with it, its text does not. */
const batchSize = 5_000

/** How a column of one batch travels: once for every row, as a text array, or in the json rows. */
type Route =
  | { readonly _tag: "Constant"; readonly value: unknown }
  | { readonly _tag: "TextArray"; readonly values: ReadonlyArray<string | null> }
  | { readonly _tag: "Json"; readonly key: string }

/** The batch by column: one pass over the rows per column, each cell read once. */
const columnsOf = (
  rows: ReadonlyArray<object>,
  columns: ReadonlyArray<string>
): ReadonlyArray<ReadonlyArray<unknown>> => columns.map((column) => rows.map((row) => Reflect.get(row, column) ?? null))

/** The same value in each row: equal primitives, or Dates at the same instant. */
const isConstant = (values: ReadonlyArray<unknown>): boolean => {
  const first = values[0] ?? null
  const instant = first instanceof Date ? first.getTime() : null
  return values.every((value) =>
    instant === null ? value === first : value instanceof Date && value.getTime() === instant
  )
}

const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === "string"

/**
 * How each column of the batch travels (docs/runs.md, "Writing"), measured on PostgreSQL 15:
 * - a value every row shares (the workspace, the run, the status, the instant of the batch) is one
 *   parameter, not a json field per row to parse again;
 * - a text column that varies is a `text[]` parameter, binary, copied as it is: lexing it as json
 *   was the largest part of parsing a run's rows (the explanation sentence above all);
 * - the other columns (numbers, instants) are fields of rows in one `json` parameter, under short
 *   keys and without their nulls.
 */
const routesOf = (
  types: Readonly<Record<string, string>>,
  values: ReadonlyArray<ReadonlyArray<unknown>>
): ReadonlyArray<readonly [column: string, type: string, route: Route]> =>
  Object.entries(types).map(([column, type], n) => {
    const cells = values[n] ?? []
    if (isConstant(cells)) return [column, type, { _tag: "Constant", value: cells[0] ?? null }]
    if (type === "text" && cells.every(isTextOrNull)) return [column, type, { _tag: "TextArray", values: cells }]
    return [column, type, { _tag: "Json", key: `c${n}` }]
  })

/**
 * The json rows: the `Json` columns of each row under their short keys, a null as no key at all.
 * Instants are written once per distinct value: JSON.stringify formats a Date each time it meets one.
 */
const jsonRows = (
  count: number,
  columns: ReadonlyArray<{ readonly key: string; readonly values: ReadonlyArray<unknown> }>
): string => {
  const instants = new Map<number, string>()
  const rows: Array<Record<string, unknown>> = []
  for (let row = 0; row < count; row++) {
    const out: Record<string, unknown> = {}
    for (const { key, values } of columns) {
      const value = values[row] ?? null
      if (value === null) continue
      if (value instanceof Date) {
        const ms = value.getTime()
        const iso = instants.get(ms) ?? value.toISOString()
        instants.set(ms, iso)
        out[key] = iso
      } else {
        out[key] = value
      }
    }
    rows.push(out)
  }
  return JSON.stringify(rows)
}

/** One INSERT of a batch: its rows zipped from the json rows and the text arrays (ROWS FROM), constants bound once. */
const insertStatement = (
  sql: SqlClient.SqlClient,
  table: string,
  rows: ReadonlyArray<object>,
  types: Readonly<Record<string, string>>
) => {
  const values = columnsOf(rows, Object.keys(types))
  const routes = routesOf(types, values)
  const json = routes.flatMap(([, type, route], n) =>
    route._tag === "Json" ? [{ key: route.key, type, values: values[n] ?? [] }] : []
  )
  const arrays = routes.flatMap(([column, , route]) => (route._tag === "TextArray" ? [{ column, route }] : []))
  const sources: Array<Fragment> = []
  if (json.length > 0) {
    const record = sql.literal(json.map(({ key, type }) => `${key} ${type}`).join(", "))
    sources.push(sql`json_to_recordset(${jsonRows(rows.length, json)}::json) AS (${record})`)
  }
  for (const { route } of arrays) sources.push(sql`unnest(${route.values}::text[])`)
  const names = [...json.map(({ key }) => key), ...arrays.map(({ column }) => `a_${column}`)]
  const selected = sql.csv(
    routes.map(([column, type, route]) =>
      route._tag === "Constant"
        ? sql`${route.value}::${sql.literal(type)}`
        : sql.literal(route._tag === "Json" ? `r.${route.key}` : `r.a_${column}`)
    )
  )
  // A batch of one row, or of rows alike in every column, has nothing to zip: one row of constants.
  const from =
    sources.length === 0
      ? sql.literal("")
      : sql`FROM ROWS FROM (${sql.csv(sources)}) AS r(${sql.literal(names.join(", "))})`
  return sql`
    WITH inserted AS (
      INSERT INTO ${sql.literal(table)} (${sql.literal(Object.keys(types).join(", "))})
      SELECT ${selected} ${from}
      ON CONFLICT DO NOTHING
      RETURNING 1
    )
    SELECT count(*) AS count FROM inserted`
}

/**
 * Inserts rows into `table`, a statement per batch, the columns of `types` (column -> SQL type,
 * from code, never from input) bound as `routesOf` says: where a multi-row VALUES list binds rows
 * x columns parameters and has the database parse them all, a batch binds a few parameters and
 * sends most values in binary. `ON CONFLICT DO NOTHING` without a target skips a row that breaks any
 * unique constraint. Answers how many rows were new. Run it in a transaction: the batches of one
 * call commit together.
 */
export const insertSkippingConflicts = <Row extends object>(
  sql: SqlClient.SqlClient,
  table: string,
  types: { readonly [K in keyof Row]: string },
  rows: ReadonlyArray<Row>
): Effect.Effect<number, SqlError | Schema.SchemaError> =>
  Effect.reduce(
    Arr.chunksOf(rows, batchSize),
    () => 0,
    (inserted, batch) =>
      insertStatement(sql, table, batch, types).pipe(
        Effect.flatMap(countOf),
        Effect.map((count) => inserted + count)
      )
  )
