import * as PgTypes from "@effect/sql-pg/PgTypes"
import { Result, String as Str } from "effect"

const int8Error = (message: string) => Result.fail(new PgTypes.CodecError({ message }))

const twoTo32 = 4_294_967_296

/** The 8 big-endian bytes at `offset` as a number, from two 32-bit halves: no view, no bigint. */
const readInt8 = (bytes: Uint8Array, offset: number, size: number): Result.Result<number, PgTypes.CodecError> => {
  if (size !== 8) return int8Error(`int8 has ${size} bytes, expected 8`)
  const high = (bytes[offset] << 24) | (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3]
  const low =
    ((bytes[offset + 4] << 24) | (bytes[offset + 5] << 16) | (bytes[offset + 6] << 8) | bytes[offset + 7]) >>> 0
  const value = high * twoTo32 + low
  return Number.isSafeInteger(value) ? Result.succeed(value) : int8Error(`int8 ${value} is beyond a safe integer`)
}

/**
 * `bigint` columns (money in minor units, counts, `count(*)`) decode to JS numbers, as the domain
 * counts money in safe integers; a value beyond 2^53 is an error, never a silent rounding.
 * Parameters may be numbers or bigints. A run reads and writes millions of them: `read` and
 * `write` work in place, where `decode` and `encode` allocate a view, a bigint and a buffer each.
 */
const int8AsNumber: PgTypes.Codec<number | bigint> = {
  decode: (bytes) => readInt8(bytes, 0, bytes.length),
  read: readInt8,
  encode: (value) => {
    if (typeof value === "number" && !Number.isSafeInteger(value)) return int8Error(`${value} is not a safe integer`)
    const bytes = new Uint8Array(8)
    new DataView(bytes.buffer).setBigInt64(0, BigInt(value))
    return Result.succeed(bytes)
  },
  write: (sink, value) => {
    if (typeof value === "bigint") {
      sink.bigInt64(value)
      return Result.void
    }
    if (!Number.isSafeInteger(value)) return int8Error(`${value} is not a safe integer`)
    // Two's complement halves: Math.floor keeps the high half signed for a negative value.
    const high = Math.floor(value / twoTo32)
    sink.int32(high)
    sink.int32((value - high * twoTo32) | 0)
    return Result.void
  }
}

const makeTypes = (): PgTypes.Registry => {
  const types = PgTypes.makeRegistry()
  types.register(PgTypes.OID.int8, int8AsNumber, { arrayOid: PgTypes.OID.int8Array })
  return types
}

/**
 * What every client of our database shares: snake_case columns, camelCase in TypeScript
 * (`sql.insert({ workspaceId })` writes `workspace_id`, rows come back as `{ workspaceId }`;
 * JSON values are transformed too), and bigint as number.
 */
export const clientOptions = {
  transformQueryNames: Str.camelToSnake,
  transformResultNames: Str.snakeToCamel,
  types: makeTypes()
} as const
