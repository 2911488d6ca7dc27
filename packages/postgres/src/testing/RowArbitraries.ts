import { Effect, Result } from "effect"
import * as fc from "fast-check"

/** What the property tests of the fast row decoders (PgRows.FastRow) generate and compare. */

/** A nullable column's value: null about one time in three. */
export const nullable = <A>(usual: fc.Arbitrary<A>) => fc.option(usual, { nil: null, freq: 3 })
/** An id as the tables hold them: `<prefix>_…`. */
export const id = (prefix: string) => fc.string({ maxLength: 8 }).map((s) => `${prefix}_${s}`)
/** A timestamptz as the driver hands it over. */
export const instant = fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms))
export const text = fc.string({ maxLength: 6 })

/** An effect's outcome as a comparable value. */
export const outcome = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.map(Effect.result(effect), (result) => (Result.isSuccess(result) ? { ok: result.success } : { failed: true }))

/** A row for an assertion message (bigints included). */
export const shown = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === "bigint" ? `${v}n` : v))
