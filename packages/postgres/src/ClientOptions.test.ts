import * as PgTypes from "@effect/sql-pg/PgTypes"
import { assert, layer } from "@effect/vitest"
import { Effect, Result } from "effect"
import { SqlClient } from "effect/sql"
import { TestDatabase } from "./testing/TestDatabase.ts"

// On the embedded PostgreSQL, or on DATABASE_URL's server when it is set.

/** Around the 32-bit halves the int8 codec reads and writes, and the ends of the safe integers. */
const edges = [
  0,
  1,
  -1,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31),
  -(2 ** 31) - 1,
  2 ** 32 - 1,
  2 ** 32,
  -(2 ** 32),
  -(2 ** 32) - 1,
  1_234_567_890_123,
  -987_654_321_098,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER
]

layer(TestDatabase.layer, { timeout: "3 minutes" })("bigint columns and parameters", (it) => {
  it.effect("round-trip as numbers: written from numbers, read back, and seen by the database as the same values", () =>
    Effect.gen(function* () {
      const sql = (yield* SqlClient.SqlClient).withoutTransforms()
      const parameter = Result.getOrThrow(PgTypes.array(edges, PgTypes.OID.int8))
      const rows = yield* sql<{
        readonly value: number
        readonly text: string
        readonly values: ReadonlyArray<number>
      }>`
        SELECT v AS value, v::text AS text, $1::bigint[] AS values
        FROM unnest(${parameter}::bigint[]) WITH ORDINALITY AS u(v, n) ORDER BY n`
      assert.deepStrictEqual(
        rows.map((row) => row.value),
        edges
      )
      assert.deepStrictEqual(
        rows.map((row) => row.text),
        edges.map(String)
      )
      assert.deepStrictEqual(rows[0]?.values, edges, "array elements read alike")
      const [big] = yield* sql<{ readonly value: number }>`SELECT ${2 ** 40 + 7} AS value`
      assert.strictEqual(big?.value, 2 ** 40 + 7, "a bigint parameter the driver infers")
    })
  )

  it.effect("a value beyond the safe integers is an error, never a rounded number", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const error = yield* Effect.flip(sql`SELECT 9007199254740993::bigint AS value`)
      assert.include(error.message, "Failed to decode row")
    })
  )
})
