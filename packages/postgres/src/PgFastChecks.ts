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

export const isInteger = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value)
export const isFiniteNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value)
export const isFiniteOrNull = (value: unknown): value is number | null => value === null || isFiniteNumber(value)
export const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === "string"
export const isInstant = (value: unknown): value is Date =>
  value instanceof Date && Number.isSafeInteger(value.getTime())
export const isInstantOrNull = (value: unknown): value is Date | null => value === null || isInstant(value)
export const instantOrNull = (value: Date | null): number | null => (value === null ? null : value.getTime())

export const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null
