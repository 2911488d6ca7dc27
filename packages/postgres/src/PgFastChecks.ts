import { Schema } from "effect"

/**
 * The checks of PgColumns' column schemas written out, for the values the driver hands over (int8 and
 * int4 as numbers, double precision as numbers, timestamptz as Dates), as the fast row decoders
 * (PgRows.FastRow) use them; anything else is left to the schema.
 */

/** Membership in a `Schema.Literals`, by a set of its literals (Schema.is costs several times more). */
export const literalOf = <L extends string>(schema: { readonly literals: ReadonlyArray<L> }) => {
  const literals: ReadonlySet<unknown> = new Set(schema.literals)
  return (value: unknown): value is L => literals.has(value)
}

/**
 * Membership in a string schema, as `Schema.is` answers it: `typeof` alone when the schema is a
 * string that checks nothing more (every id: a branded string), which is about nine times cheaper
 * per value (four ids on each of the 51 rows of a list); the schema's own test otherwise.
 */
export const stringOf = <S extends Schema.Top & { readonly Type: string }>(schema: S) => {
  const is = Schema.is(schema)
  if (schema.ast._tag !== "String" || schema.ast.checks !== undefined) return is
  return (value: unknown): value is S["Type"] => typeof value === "string"
}

export const isInteger = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value)
export const isIntegerOrNull = (value: unknown): value is number | null => value === null || isInteger(value)
export const isFiniteNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value)
export const isFiniteOrNull = (value: unknown): value is number | null => value === null || isFiniteNumber(value)
export const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === "string"
export const isInstant = (value: unknown): value is Date =>
  value instanceof Date && Number.isSafeInteger(value.getTime())
export const isInstantOrNull = (value: unknown): value is Date | null => value === null || isInstant(value)
export const instantOrNull = (value: Date | null): number | null => (value === null ? null : value.getTime())

export const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null
