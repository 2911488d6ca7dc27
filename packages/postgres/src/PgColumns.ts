import { Timestamp } from "@margin/core/kernel/Timestamp"
import { Schema, SchemaGetter } from "effect"

/**
 * How column values arrive from the driver and become domain values. The client decodes
 * `timestamptz` as `Date` and `bigint` as a number or a bigint (depending on its type registry);
 * the domain counts instants in epoch milliseconds and money in safe integers.
 */

/** A `timestamptz` column as epoch milliseconds. */
export const Instant = Schema.Date.pipe(
  Schema.decodeTo(Timestamp, {
    decode: SchemaGetter.transform((date: Date) => date.getTime()),
    encode: SchemaGetter.transform((ms: number) => new Date(ms))
  })
)

/**
 * Nullable columns put `Null` first: a union tries its members in order, and a failed
 * transformation (a null handed to `Instant`) costs far more than a failed `Null` check.
 */
const nullable = <S extends Schema.Top>(schema: S) => Schema.Union([Schema.Null, schema])

export const NullableInstant = nullable(Instant)

/** A `bigint` (or `integer`) column as a safe integer. */
export const Int8 = Schema.Union([Schema.Finite, Schema.BigInt]).pipe(
  Schema.decodeTo(Schema.Int, {
    decode: SchemaGetter.transform((value: bigint | number) => Number(value)),
    encode: SchemaGetter.transform((value: number): bigint | number => value)
  })
)

export const NullableInt8 = nullable(Int8)

/** A `double precision` column, or a `numeric` one (which the driver hands over as a decimal string). */
export const Float = Schema.Union([Schema.Finite, Schema.FiniteFromString])

export const NullableFloat = nullable(Float)

/** Epoch milliseconds as the parameter of a `timestamptz` column (the driver binds a Date as timestamptz). */
export const toTimestamptz = (ms: number): Date => new Date(ms)

export const toNullableTimestamptz = (ms: number | null): Date | null => (ms === null ? null : new Date(ms))
