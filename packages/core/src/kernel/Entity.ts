import { Schema } from "effect"
import { WorkspaceId } from "./Ids.ts"
import { Timestamp } from "./Timestamp.ts"

/**
 * An entity declared once: each field with its domain schema, the column(s) that store it, the name
 * and form it has on the wire, what it means and an example. The domain type is the struct of the
 * fields' schemas; the PostgreSQL adapter derives the row codec from the columns (PgEntityRows), the
 * wire derives the JSON shape and its encoder from the wire forms (edge's EntityJson), and the OpenAPI
 * schema and the MCP output schemas are that JSON shape. Effect's `Model.Class` declares variants of
 * one field set under the same keys; here the keys differ per side (camelCase, snake_case columns,
 * snake_case wire names), one field spans two columns (an interval) and money on the wire needs a
 * second field (the currency), so this is the small equivalent of it written once.
 */

/** A schema that needs no service to decode or encode (every field's). */
export type Codec = Schema.Codec<unknown, unknown>

/** The SQL type a column is declared with; it says how the driver hands its values over. */
export type ColumnType = "text" | "integer" | "bigint" | "double precision" | "timestamptz"

/** One column: its name, its SQL type, whether it holds null, and the domain schema its values meet. */
export interface Column {
  readonly name: string
  readonly type: ColumnType
  readonly nullable: boolean
  readonly schema: Codec
}

/**
 * How a field is stored: in one column (`column`), or in several, split and joined by the field
 * (`columns`). `join` receives the columns' values already checked against their schemas.
 */
export interface Stored<T> {
  readonly columns: ReadonlyArray<Column>
  // Methods, not function properties: a field of any schema is then a Field of Codec.
  split(value: T): ReadonlyArray<unknown>
  join(values: ReadonlyArray<unknown>): T
}

/** How a field shows on the wire: its name there and its form, which the wire layer turns into a schema. */
export type Wire = Same<string, Schema.Top> | Money<string> | Ratio<string> | Instant<string, boolean>
/** As it is, described by `schema` (the wire's own, e.g. a plain string for a branded id). */
export interface Same<N extends string, S extends Schema.Top> {
  readonly _tag: "Same"
  readonly name: N
  readonly schema: S
}
/** Minor units as a Money object, in the currency of the field `currency` (a CurrencyCode). */
export interface Money<N extends string> {
  readonly _tag: "Money"
  readonly name: N
  readonly currency: string
}
/** A fraction rounded to four decimals, or null. */
export interface Ratio<N extends string> {
  readonly _tag: "Ratio"
  readonly name: N
}
/** Epoch milliseconds as ISO 8601; null stays null when `nullable`. */
export interface Instant<N extends string, Nullable extends boolean> {
  readonly _tag: "Instant"
  readonly name: N
  readonly nullable: Nullable
}

export interface Field<S extends Codec, W extends Wire | undefined = Wire | undefined> {
  readonly schema: S
  readonly description: string
  readonly example: S["Type"]
  readonly stored: Stored<S["Type"]>
  /** Absent: the field never leaves the service (the workspace, the version). */
  readonly wire: W
}

export type Fields = Readonly<Record<string, Field<Codec>>>

export interface Entity<F extends Fields> {
  readonly name: string
  readonly fields: F
  /** The domain schema: the struct of the fields' schemas, in declaration order. */
  readonly schema: Schema.Struct<{ readonly [K in keyof F]: F[K]["schema"] }>
  /** The fields' examples as one value of the entity. */
  readonly example: { readonly [K in keyof F]: F[K]["example"] }
}

const nullable = (schema: Codec): boolean => Schema.is(schema)(null)

/** One column holding the field's value as it is (its nullability read from the schema). */
const inColumn = <S extends Codec>(schema: S, name: string, type: ColumnType): Stored<S["Type"]> => ({
  columns: [{ name, type, nullable: nullable(schema), schema }],
  split: (value) => [value],
  join: ([value]) => value
})

export type FieldOptions<S extends Codec, W extends Wire | undefined> = {
  readonly description: string
  readonly example: S["Type"]
  /** Its name and form on the wire; undefined for a field that never leaves the service. */
  readonly wire: W
} & (
  | /** The column and its SQL type. */ { readonly column: readonly [name: string, type: ColumnType] }
  | /** How the field spans several columns. */ { readonly columns: Stored<S["Type"]> }
)

export const field = <S extends Codec, W extends Wire | undefined>(
  schema: S,
  options: FieldOptions<S, W>
): Field<S, W> => ({
  schema,
  description: options.description,
  example: options.example,
  stored: "columns" in options ? options.columns : inColumn(schema, options.column[0], options.column[1]),
  wire: options.wire
})

/** A column of a field stored in several (`Stored.columns`). */
export const column = (name: string, type: ColumnType, schema: Codec): Column => ({
  name,
  type,
  nullable: nullable(schema),
  schema
})

export const same = <const N extends string, S extends Schema.Top>(name: N, schema: S): Same<N, S> => ({
  _tag: "Same",
  name,
  schema
})
export const money = <const N extends string>(name: N, currency: string): Money<N> => ({
  _tag: "Money",
  name,
  currency
})
export const ratio = <const N extends string>(name: N): Ratio<N> => ({ _tag: "Ratio", name })
export const instant = <const N extends string>(name: N): Instant<N, false> => ({
  _tag: "Instant",
  name,
  nullable: false
})
export const nullableInstant = <const N extends string>(name: N): Instant<N, true> => ({
  _tag: "Instant",
  name,
  nullable: true
})

const NullableText = Schema.NullOr(Schema.String)
const NullableTimestamp = Schema.NullOr(Timestamp)

/** A text that may be null (who decided, why), under one name in its column and on the wire. */
export const textOrNull = <const N extends string>(name: N, description: string) =>
  field(NullableText, { description, example: null, column: [name, "text"], wire: same(name, NullableText) })

/** An instant that may be null (when it was decided), under one name in its column and on the wire. */
export const instantOrNull = <const N extends string>(name: N, description: string) =>
  field(NullableTimestamp, {
    description,
    example: null,
    column: [name, "timestamptz"],
    wire: nullableInstant(name)
  })

/**
 * The fields every versioned entity of a workspace has, the same in each: its workspace (never on the
 * wire), its version (the compare-and-swap guard of the repositories, never on the wire), and when it
 * was created and last changed (the wire's last two keys). `createdAt` is the example of both instants.
 */
export const workspaceField = field(WorkspaceId, {
  description: "The workspace it belongs to (the caller's, never on the wire).",
  example: WorkspaceId.make("ws_01m812wcgm3d3x5bfbv0djxq6y"),
  column: ["workspace_id", "text"],
  wire: undefined
})

export const versionStamps = (createdAt: number) => ({
  version: field(Schema.Number, {
    description: "Bumped by every saved transition: the compare-and-swap guard of the repositories.",
    example: 0,
    column: ["version", "integer"],
    wire: undefined
  }),
  createdAt: field(Timestamp, {
    description: "When it was made.",
    example: createdAt,
    column: ["created_at", "timestamptz"],
    wire: instant("created_at")
  }),
  updatedAt: field(Timestamp, {
    description: "When it last changed.",
    example: createdAt,
    column: ["updated_at", "timestamptz"],
    wire: instant("updated_at")
  })
})

const mapFields = <F extends Fields, B>(fields: F, f: (field: F[keyof F]) => B): { [K in keyof F]: B } => {
  const out: Partial<Record<keyof F, B>> = {}
  for (const key of Object.keys(fields) as Array<keyof F>) out[key] = f(fields[key])
  return out as { [K in keyof F]: B }
}

export const entity = <const F extends Fields>(name: string, fields: F): Entity<F> => ({
  name,
  fields,
  schema: Schema.Struct(mapFields(fields, (field) => field.schema)) as Entity<F>["schema"],
  example: mapFields(fields, (field) => field.example) as Entity<F>["example"]
})

/**
 * A function of one value `v` answering the object literal `{ [key]: expression }` of `entries`,
 * where an expression reads `v` (`v[0]`, `v["name"]`) and `h[i]`, the helpers given. Objects given
 * two dozen properties one by one (a driver's row, a loop over fields) become hash tables to V8, and
 * a loop reading a property by a variable key is slow at every site: a literal of named reads keeps
 * the fast paths, which lists and exports take row after row. Keys and expressions come from
 * declarations, never from input.
 */
export const compiled = (
  entries: ReadonlyArray<readonly [key: string, expression: string]>,
  helpers: ReadonlyArray<unknown> = []
): ((v: unknown) => unknown) => {
  const body = entries.map(([key, expression]) => `${JSON.stringify(key)}: ${expression}`).join(", ")
  return new Function("h", `return function (v) { return {${body}} }`)(helpers)
}

/** `{ [keys[i]]: values[i] }` of an array of values, as one object literal (`compiled`). */
export const recordOf = (keys: ReadonlyArray<string>): ((values: unknown) => unknown) =>
  compiled(keys.map((key, i) => [key, `v[${i}]`]))

/** `v["key"]`: a named read of a declared key in a compiled expression. */
export const read = (key: string): string => `v[${JSON.stringify(key)}]`
