import type { Codec, Column, Entity, Fields } from "@margin/core/kernel/Entity"
import { compiled, recordOf } from "@margin/core/kernel/Entity"
import { Schema, SchemaAST } from "effect"
import { Float, Instant, Int8, NullableFloat, NullableInstant, NullableInt8 } from "./PgColumns.ts"
import { isFiniteNumber, isInstant, isInteger, isRecord } from "./PgFastChecks.ts"
import type { FastRow } from "./PgRows.ts"

/** What a column's value is not, for the fast checks below (the schema then decides). */
const invalid: unique symbol = Symbol("invalid")
type Read = (value: unknown) => unknown

/** The codec of a column's driver value: text by the field's schema, the others by their SQL type (PgColumns). */
const codecOf = (column: Column): Codec => {
  switch (column.type) {
    case "text":
      return column.schema
    case "integer":
    case "bigint":
      return column.nullable ? NullableInt8 : Int8
    case "double precision":
      return column.nullable ? NullableFloat : Float
    case "timestamptz":
      return column.nullable ? NullableInstant : Instant
  }
}

/**
 * A text column's check written out (PgFastChecks): `typeof` for a plain or branded string, a set for
 * literals, null when the schema takes it; any other schema keeps its own test.
 */
const textCheck = (schema: Schema.Top): ((value: unknown) => boolean) => {
  const ast = schema.ast
  const members = SchemaAST.isUnion(ast) ? ast.types : [ast]
  const takesNull = members.some((member) => member._tag === "Null")
  const rest = members.filter((member) => member._tag !== "Null")
  if (rest.every((member) => member._tag === "Literal") && ast.checks === undefined) {
    const literals: ReadonlySet<unknown> = new Set(
      rest.map((member) => (member._tag === "Literal" ? member.literal : null))
    )
    return (value) => (value === null ? takesNull : literals.has(value))
  }
  if (rest.length === 1 && rest[0]?._tag === "String" && rest[0].checks === undefined && ast.checks === undefined) {
    return (value) => (value === null ? takesNull : typeof value === "string")
  }
  return Schema.is(schema)
}

/** The value a column's driver value stands for, or `invalid` when the fast check cannot tell. */
const readOf = (column: Column): Read => {
  const orNull =
    (read: Read): Read =>
    (value) =>
      value === null ? (column.nullable ? null : invalid) : read(value)
  switch (column.type) {
    case "text": {
      const check = textCheck(column.schema)
      return (value) => (check(value) ? value : invalid)
    }
    case "integer":
    case "bigint":
      return orNull((value) => (isInteger(value) ? value : invalid))
    case "double precision":
      return orNull((value) => (isFiniteNumber(value) ? value : invalid))
    case "timestamptz":
      return orNull((value) => (isInstant(value) ? value.getTime() : invalid))
  }
}

/**
 * PgFastChecks' checks of the numeric and instant columns as expressions of the value `at` (a
 * compiled decoder's local), and the domain value they answer; undefined for a text column (its
 * check is a helper: `readOf`).
 */
const inlineRead = (column: Column, at: string): { readonly check: string; readonly value: string } | undefined => {
  const orNull = (check: string) => (column.nullable ? `${at} === null || (${check})` : check)
  switch (column.type) {
    case "text":
      return undefined
    case "integer":
    case "bigint":
      return { check: orNull(`typeof ${at} === "number" && Number.isSafeInteger(${at})`), value: at }
    case "double precision":
      return { check: orNull(`typeof ${at} === "number" && Number.isFinite(${at})`), value: at }
    case "timestamptz":
      return {
        check: orNull(`${at} instanceof Date && Number.isSafeInteger(${at}.getTime())`),
        value: column.nullable ? `(${at} === null ? null : ${at}.getTime())` : `${at}.getTime()`
      }
  }
}

/** A column's domain value as the driver's parameter: instants bind as Dates (timestamptz). */
const paramOf = (column: Column): ((value: unknown) => unknown) =>
  column.type === "timestamptz" ? (value) => (typeof value === "number" ? new Date(value) : value) : (value) => value

/**
 * An entity's table as the PostgreSQL adapter reads and writes it, derived from its declaration
 * (core's Entity): the columns in declaration order, the row's codec, the fast decoder, the row of an
 * entity to insert or compare. Rows are read as the driver's values (`statement.values`, one array
 * per row in the order of `columns`): an array of values keeps V8's fast paths where a driver's row
 * object of two dozen columns is a hash table (PgRows.readValues).
 */
export const entityRows = <F extends Fields>(entity: Entity<F>) => {
  type A = Entity<F>["schema"]["Type"]
  const fields = Object.entries(entity.fields)
  const columns = fields.flatMap(([, field]) => field.stored.columns)
  const names = columns.map((column) => column.name)
  const reads = columns.map(readOf)
  const params = columns.map(paramOf)
  const rowOf = recordOf(names)

  /** The row's codec, by column name: its Struct names the columns `SELECT` reads, in order. */
  const schema = Schema.Struct(Object.fromEntries(columns.map((column) => [column.name, codecOf(column)])))
  /** The same columns as one array of values (the driver's `values`), decoded by the schema. */
  const values = Schema.Tuple(columns.map(codecOf))

  /** The domain value of a row's values, each already its column's domain value (a field of several joins them). */
  const joins: Array<(values: ReadonlyArray<unknown>) => unknown> = []
  let at = 0
  const domainEntries = fields.map(([key, field]): readonly [string, string] => {
    const width = field.stored.columns.length
    const first = at
    at += width
    if (width === 1) return [key, `v[${first}]`]
    joins.push((values) => field.stored.join(values))
    return [key, `h[${joins.length - 1}](v.slice(${first}, ${first + width}))`]
  })
  const domainOf = compiled(domainEntries, joins)
  // Each value passed its column's check (or its codec), and `join` builds the field's value: A by construction.
  const toDomain = (row: ReadonlyArray<unknown>): A => domainOf(row) as A

  /**
   * The row's values decoded by the fast checks, or undefined (the schema then decides: FastRow).
   * Compiled like `compiled`: one named check a column, no loop over an array of checks.
   */
  const checks = columns.map((column, i) => {
    const inline = inlineRead(column, `v[${i}]`)
    return inline === undefined
      ? `const c${i} = h[${i}](v[${i}]); if (c${i} === x) return undefined;`
      : `const c${i} = v[${i}]; if (!(${inline.check})) return undefined;`
  })
  const decoded = columns.map((column, i) => inlineRead(column, `c${i}`)?.value ?? `c${i}`)
  const fast: FastRow<ReadonlyArray<unknown>> = new Function(
    "h",
    "x",
    `return function (v) {
      if (!Array.isArray(v) || v.length !== ${columns.length}) return undefined;
      ${checks.join("\n")}
      return [${decoded.join(", ")}]
    }`
  )(reads, invalid)

  /** The columns' values of an entity, as parameters. */
  const paramsOf = (entity: A): Array<unknown> => {
    const out: Array<unknown> = []
    for (const [key, field] of fields) {
      const value: unknown = Reflect.get(entity, key)
      if (field.stored.columns.length === 1) out.push(value)
      else for (const part of field.stored.split(value)) out.push(part)
    }
    for (let i = 0; i < out.length; i++) out[i] = params[i]?.(out[i]) ?? out[i]
    return out
  }

  const insertTypes: Readonly<Record<string, string>> = Object.fromEntries(
    columns.map((column) => [column.name, column.type])
  )

  return {
    columns: names,
    schema,
    values,
    fast,
    toDomain,
    /** A driver's row object (a cursor's) as the array of its values in column order. */
    valuesOf: (row: unknown): unknown => (isRecord(row) ? names.map((name) => row[name]) : row),
    /** The row of an entity, column -> parameter (insert, PgRows.transitionChanges). */
    toRow: (entity: A): Readonly<Record<string, unknown>> => rowOf(paramsOf(entity)) as Record<string, unknown>,
    /** Column -> SQL type, for batch inserts (PgBatchInsert). */
    insertTypes: insertTypes
  }
}
