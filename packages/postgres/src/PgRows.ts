import { Array as Arr, Effect, Option, Schema } from "effect"
import { Int8 } from "./PgColumns.ts"

/**
 * Decodes a query's rows with `schema`, then maps each one to the domain with the pure `toDomain`.
 * A row that does not decode is a SchemaError (the table and the adapter disagree).
 */
export const rowsOf = <T, E, A>(schema: Schema.Codec<T, E>, toDomain: (row: T) => A) => {
  const decode = Schema.decodeUnknownEffect(Schema.Array(schema))
  return (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<A>, Schema.SchemaError> =>
    Effect.map(decode(rows), (decoded) => decoded.map(toDomain))
}

/** The first row, decoded and mapped, if there is one. */
export const firstOf = <T, E, A>(schema: Schema.Codec<T, E>, toDomain: (row: T) => A) => {
  const decode = Schema.decodeUnknownEffect(schema)
  return (rows: ReadonlyArray<unknown>): Effect.Effect<Option.Option<A>, Schema.SchemaError> =>
    rows.length === 0 ? Effect.succeedNone : Effect.map(decode(rows[0]), (row) => Option.some(toDomain(row)))
}

/**
 * The column list of a row schema (`id, name, …`), optionally qualified by a table alias: queries
 * read exactly the columns their schema decodes. Built from code, never from input.
 */
export const columnsOf = (schema: { readonly fields: Readonly<Record<string, unknown>> }, alias?: string): string =>
  Object.keys(schema.fields)
    .map((column) => (alias === undefined ? column : `${alias}.${column}`))
    .join(", ")

/** Columns a saved transition never changes: the keys and the creation instant. */
const fixedColumns: ReadonlySet<string> = new Set(["id", "workspace_id", "created_at"])

/**
 * The columns of a row schema that a saved transition writes, picked from `toRow(entity)`:
 * everything but the keys and the creation instant.
 */
export const transitionColumns = <A>(
  schema: { readonly fields: Readonly<Record<string, unknown>> },
  toRow: (entity: A) => Readonly<Record<string, unknown>>
) => {
  const columns = Object.keys(schema.fields).filter((column) => !fixedColumns.has(column))
  return (entity: A): Record<string, unknown> => {
    const row = toRow(entity)
    return Object.fromEntries(columns.map((column) => [column, row[column]]))
  }
}

/** Decodes and maps the non-empty chunks of a row stream (`Stream.mapArrayEffect`), one decode per chunk. */
export const chunkOf = <T, E, A>(schema: Schema.Codec<T, E>, toDomain: (row: T) => A) => {
  const decode = Schema.decodeUnknownEffect(Schema.NonEmptyArray(schema))
  return (rows: Arr.NonEmptyReadonlyArray<unknown>): Effect.Effect<Arr.NonEmptyReadonlyArray<A>, Schema.SchemaError> =>
    Effect.map(decode(rows), (decoded) => Arr.map(decoded, toDomain))
}

const Counted = Schema.Struct({ count: Int8 })
const firstCount = firstOf(Counted, (row) => row.count)

/** The number a `SELECT count(*) AS count …` answers. */
export const countOf = (rows: ReadonlyArray<unknown>): Effect.Effect<number, Schema.SchemaError> =>
  Effect.map(
    firstCount(rows),
    Option.getOrElse(() => 0)
  )

/** Whether a `… RETURNING` statement touched a row. */
export const touchedAny = (rows: ReadonlyArray<unknown>): boolean => rows.length > 0
