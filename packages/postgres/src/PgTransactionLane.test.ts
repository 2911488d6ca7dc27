import { assert, layer } from "@effect/vitest"
import { Effect, Exit, References, Tracer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTransformer } from "effect/sql/Statement"
import { transactionLane } from "./PgTransactionLane.ts"
import { TestDatabase } from "./testing/TestDatabase.ts"

// On the embedded PostgreSQL, or on DATABASE_URL's server when it is set.

const text = "SELECT $1::text AS label, $2::int AS amount"
const parameters = ["lane", 7]

/** The span names a tracer saw while `effect` ran with tracing on. */
const spansOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const names: Array<string> = []
    const base = Tracer.make({ span: (options) => new Tracer.NativeSpan(options) })
    const tracer = Tracer.make({
      span: (options) => {
        names.push(options.name)
        return base.span(options)
      }
    })
    const value = yield* effect.pipe(Effect.withTracer(tracer), Effect.provideService(References.TracerEnabled, true))
    return { value, names }
  })

layer(TestDatabase.layer, { timeout: "3 minutes" })("transactionLane", (it) => {
  it.effect("answers what sql.unsafe answers, inside a transaction and outside", () =>
    Effect.gen(function* () {
      const sql = (yield* SqlClient.SqlClient).withoutTransforms()
      const lane = transactionLane(sql)
      const expectedRows = yield* sql.unsafe(text, parameters)
      const expectedValues = yield* sql.unsafe(text, parameters).values
      assert.deepStrictEqual(expectedRows, [{ label: "lane", amount: 7 }])
      assert.deepStrictEqual(expectedValues, [["lane", 7]])
      assert.deepStrictEqual(yield* lane.rows(text, parameters), expectedRows)
      assert.deepStrictEqual(yield* lane.values(text, parameters), expectedValues)
      const inside = yield* sql.withTransaction(
        Effect.all([lane.rows(text, parameters), lane.values(text, parameters)])
      )
      assert.deepStrictEqual(inside, [expectedRows, expectedValues])
    })
  )

  it.effect("runs on the transaction's connection: its writes are seen inside and rolled back with it", () =>
    Effect.gen(function* () {
      const sql = (yield* SqlClient.SqlClient).withoutTransforms()
      const lane = transactionLane(sql)
      const name = `lane_probe_${Date.now()}`
      const table = sql(name)
      yield* sql`CREATE TABLE ${table} (label text)`
      const failed = yield* Effect.exit(
        sql.withTransaction(
          Effect.gen(function* () {
            yield* lane.rows(`INSERT INTO ${name} (label) VALUES ($1)`, ["rolled back"])
            // A plain statement of the same transaction sees the lane's write: one connection.
            assert.deepStrictEqual(yield* sql`SELECT count(*)::int AS n FROM ${table}`, [{ n: 1 }])
            return yield* Effect.fail("abort")
          })
        )
      )
      assert.isTrue(Exit.isFailure(failed))
      assert.deepStrictEqual(yield* sql`SELECT count(*)::int AS n FROM ${table}`, [{ n: 0 }])
      yield* sql`DROP TABLE ${table}`
    })
  )

  it.effect("fails with the statement's SqlError, inside a transaction as outside", () =>
    Effect.gen(function* () {
      const sql = (yield* SqlClient.SqlClient).withoutTransforms()
      const lane = transactionLane(sql)
      const outside = yield* Effect.flip(lane.rows("SELECT * FROM no_such_table_here", []))
      const inside = yield* Effect.flip(sql.withTransaction(lane.values("SELECT * FROM no_such_table_here", [])))
      assert.strictEqual(outside._tag, "SqlError")
      assert.strictEqual(inside._tag, "SqlError")
    })
  )

  it.effect("takes the client's path, with its span, when tracing is on", () =>
    Effect.gen(function* () {
      const sql = (yield* SqlClient.SqlClient).withoutTransforms()
      const lane = transactionLane(sql)
      const traced = yield* spansOf(sql.withTransaction(lane.rows(text, parameters)))
      assert.deepStrictEqual(traced.value, [{ label: "lane", amount: 7 }])
      // The transaction's span and the statement's (named after the database, as the client names it).
      assert.strictEqual(traced.names.length, 2)
      assert.strictEqual(traced.names[0], "sql.transaction")
    })
  )

  it.effect("takes the client's path when a statement transformer is set, which then sees the statement", () =>
    Effect.gen(function* () {
      const sql = (yield* SqlClient.SqlClient).withoutTransforms()
      const lane = transactionLane(sql)
      let seen = 0
      const rows = yield* sql.withTransaction(lane.rows(text, parameters)).pipe(
        Effect.provideService(CurrentTransformer, (statement) => {
          seen++
          return Effect.succeed(statement)
        })
      )
      assert.deepStrictEqual(rows, [{ label: "lane", amount: 7 }])
      assert.strictEqual(seen, 1)
    })
  )
})
