import { Array as Arr, Effect, Option, Schema } from "effect"
import type { SqlError } from "effect/sql/SqlError"
import type { Statement } from "effect/sql/Statement"
import { Int8 } from "./PgColumns.ts"
import { isInteger, isRecord } from "./PgFastChecks.ts"

/**
 * The schema's checks of one row written out by hand, for rows read on hot paths: the decoded row
 * when every column passes them, otherwise `undefined`, and the schema decides (it then accepts the
 * row or says what is wrong). Decoding a wide row with a schema costs microseconds per row; a
 * property test of each fast decoder shows it answers what its schema answers.
 */
export type FastRow<T> = (row: unknown) => T | undefined

/** The rows decoded by `fast`, or undefined as soon as one of them is not. */
const allFast = <T>(fast: FastRow<T>, rows: ReadonlyArray<unknown>): Array<T> | undefined => {
  const decoded: Array<T> = []
  for (const row of rows) {
    const one = fast(row)
    if (one === undefined) return undefined
    decoded.push(one)
  }
  return decoded
}

/**
 * Decodes a query's rows with `schema` (or `fast`, see FastRow), then maps each one to the domain
 * with the pure `toDomain`. A row that does not decode is a SchemaError (the table and the adapter
 * disagree).
 */
export const rowsOf = <T, E, A>(schema: Schema.Codec<T, E>, toDomain: (row: T) => A, fast?: FastRow<T>) => {
  const decode = Schema.decodeUnknownEffect(Schema.Array(schema))
  return (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<A>, Schema.SchemaError> => {
    const decoded = fast === undefined ? undefined : allFast(fast, rows)
    return decoded !== undefined
      ? Effect.succeed(decoded.map(toDomain))
      : Effect.map(decode(rows), (all) => all.map(toDomain))
  }
}

/** The first row, decoded (by `fast` when it can) and mapped, if there is one. */
export const firstOf = <T, E, A>(schema: Schema.Codec<T, E>, toDomain: (row: T) => A, fast?: FastRow<T>) => {
  const decode = Schema.decodeUnknownEffect(schema)
  return (rows: ReadonlyArray<unknown>): Effect.Effect<Option.Option<A>, Schema.SchemaError> => {
    if (rows.length === 0) return Effect.succeedNone
    const decoded = fast?.(rows[0])
    return decoded !== undefined
      ? Effect.succeed(Option.some(toDomain(decoded)))
      : Effect.map(decode(rows[0]), (row) => Option.some(toDomain(row)))
  }
}

/**
 * Rows given as the driver's values (in the statement's column order) as `decode` decodes them, each
 * built by `rowOf` first: the driver's row objects are hash tables to V8 past a dozen columns
 * (PgRecommendationRows.recommendationRowOfValues).
 */
export const fromValues =
  <A, E>(
    rowOf: (values: ReadonlyArray<unknown>) => unknown,
    decode: (rows: ReadonlyArray<unknown>) => Effect.Effect<A, E>
  ) =>
  (values: ReadonlyArray<ReadonlyArray<unknown>>): Effect.Effect<A, E> =>
    decode(values.map(rowOf))

/** A statement's rows as `decode` decodes them, read as the driver's values (see `fromValues`). */
export const readValues = <A, E>(
  rowOf: (values: ReadonlyArray<unknown>) => unknown,
  decode: (rows: ReadonlyArray<unknown>) => Effect.Effect<A, E>
) => {
  const decodeValues = fromValues(rowOf, decode)
  return (statement: Statement<unknown>): Effect.Effect<A, E | SqlError> =>
    Effect.flatMap(statement.values, decodeValues)
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

/** A column's value as `toRow` gives it, the same before and after (instants by their time). */
const sameValue = (before: unknown, after: unknown): boolean =>
  before === after || (before instanceof Date && after instanceof Date && before.getTime() === after.getTime())

/**
 * What a saved transition writes, from `toRow` of the entity before and after it: the columns of the
 * row schema, but the keys and the creation instant, whose values differ (the version always does).
 * Writing every column sent two dozen parameters for an accept that changes five. Only the changed
 * columns are copied: picking all of them first built two objects of two dozen keys a transition.
 */
export const transitionChanges = <A>(
  schema: { readonly fields: Readonly<Record<string, unknown>> },
  toRow: (entity: A) => Readonly<Record<string, unknown>>
) => {
  const columns = Object.keys(schema.fields).filter((column) => !fixedColumns.has(column))
  return (before: A, after: A): Record<string, unknown> => {
    const was = toRow(before)
    const is = toRow(after)
    const changed: Record<string, unknown> = {}
    for (const column of columns) if (!sameValue(was[column], is[column])) changed[column] = is[column]
    return changed
  }
}

/**
 * Decodes (by `fast` when it can) and maps the non-empty chunks of a row stream
 * (`Stream.mapArrayEffect`), one decode per chunk.
 */
export const chunkOf = <T, E, A>(schema: Schema.Codec<T, E>, toDomain: (row: T) => A, fast?: FastRow<T>) => {
  const decode = Schema.decodeUnknownEffect(Schema.NonEmptyArray(schema))
  return (
    rows: Arr.NonEmptyReadonlyArray<unknown>
  ): Effect.Effect<Arr.NonEmptyReadonlyArray<A>, Schema.SchemaError> => {
    const decoded = fast === undefined ? undefined : allFast(fast, rows)
    return decoded !== undefined && Arr.isArrayNonEmpty(decoded)
      ? Effect.succeed(Arr.map(decoded, toDomain))
      : Effect.map(decode(rows), (all) => Arr.map(all, toDomain))
  }
}

const Counted = Schema.Struct({ count: Int8 })

/**
 * The `count` column of a statement's first row (`count(*) AS count`, `… RETURNING count`), if it
 * returned a row. A safe integer is taken as it is (FastRow: the rate budget reads one on every
 * request); anything else, a bigint say, goes through the schema.
 */
export const firstCount = firstOf(
  Counted,
  (row) => row.count,
  (row) => (isRecord(row) && isInteger(row.count) ? { count: row.count } : undefined)
)

/** The number a `SELECT count(*) AS count …` answers. */
export const countOf = (rows: ReadonlyArray<unknown>): Effect.Effect<number, Schema.SchemaError> =>
  Effect.map(
    firstCount(rows),
    Option.getOrElse(() => 0)
  )

/** Whether a `… RETURNING` statement touched a row. */
export const touchedAny = (rows: ReadonlyArray<unknown>): boolean => rows.length > 0

/**
 * Marks a row once and answers it as it was before: `mark` is an `UPDATE … WHERE <not yet marked>
 * RETURNING`, whose row, when there is one, `unmark` turns back into the row before; else `current`
 * reads the row as it stands (already marked, or absent). A racing `mark` waits for the row's lock,
 * then finds it marked: exactly one caller sees it unmarked.
 */
export const markOnce = <A, E, R>(
  mark: Effect.Effect<Option.Option<A>, E, R>,
  unmark: (marked: A) => A,
  current: Effect.Effect<Option.Option<A>, E, R>
): Effect.Effect<Option.Option<A>, E, R> =>
  Effect.flatMap(mark, (marked) =>
    Option.isSome(marked) ? Effect.succeed(Option.some(unmark(marked.value))) : current
  )
