import * as PgTypes from "@effect/sql-pg/PgTypes"
import { Result, String as Str } from "effect"

const int8Error = (message: string) => Result.fail(new PgTypes.CodecError({ message }))

/**
 * `bigint` columns (money in minor units, counts, `count(*)`) decode to JS numbers, as the domain
 * counts money in safe integers; a value beyond 2^53 is an error, never a silent rounding.
 * Parameters may be numbers or bigints.
 */
const int8AsNumber: PgTypes.Codec<number | bigint> = {
  decode: (bytes) => {
    if (bytes.length !== 8) return int8Error(`int8 has ${bytes.length} bytes, expected 8`)
    const value = Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigInt64(0))
    return Number.isSafeInteger(value) ? Result.succeed(value) : int8Error(`int8 ${value} is beyond a safe integer`)
  },
  encode: (value) => {
    if (typeof value === "number" && !Number.isSafeInteger(value)) return int8Error(`${value} is not a safe integer`)
    const bytes = new Uint8Array(8)
    new DataView(bytes.buffer).setBigInt64(0, BigInt(value))
    return Result.succeed(bytes)
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
