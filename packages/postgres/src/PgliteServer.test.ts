import { createConnection, type Socket } from "node:net"
import { join } from "node:path"
import * as PgClient from "@effect/sql-pg/PgClient"
import { assert, layer } from "@effect/vitest"
import { Context, Deferred, Effect, Fiber, Layer, Schedule } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { clientOptions } from "./ClientOptions.ts"
import * as EmbeddedDatabase from "./EmbeddedDatabase.ts"
import * as PgWire from "./PgWire.ts"
import { migratedDataDir } from "./testing/TestDatabase.ts"

/** The socket of a migrated PGlite, shared by the tests of this file. */
class Served extends Context.Service<Served, string>()("test/PgliteServer/Served") {}

const served = Layer.effect(
  Served,
  Effect.gen(function* () {
    const dataDir = yield* migratedDataDir
    const db = yield* EmbeddedDatabase.openPglite(EmbeddedDatabase.pgliteDirectory(dataDir))
    const socket = join(dataDir, "test.sock")
    yield* EmbeddedDatabase.host(db, socket)
    return socket
  })
)

/** A client of its own connection, closed with the test's scope. */
const connect = Effect.gen(function* () {
  const socket = yield* Served
  return yield* PgClient.make({
    path: socket,
    username: "postgres",
    database: "postgres",
    maxConnections: 1,
    multiplex: true,
    ...clientOptions
  })
})

const window = "2030-01-01T00:00:00Z"

/** Read-modify-write in a transaction: loses updates unless transactions of different connections never interleave. */
const increment = (sql: PgClient.PgClient) =>
  sql.withTransaction(
    Effect.gen(function* () {
      const [row] = yield* sql<{ readonly count: number }>`
        SELECT count FROM rate_budget_windows WHERE key = 'counter' AND window_start = ${window}`
      yield* Effect.sleep("1 millis")
      yield* sql`UPDATE rate_budget_windows SET count = ${(row?.count ?? 0) + 1}
        WHERE key = 'counter' AND window_start = ${window}`
    })
  )

/** A client speaking the protocol by hand, so that it can vanish mid-transaction. */
const rawClient = (socket: string) =>
  Effect.acquireRelease(
    Effect.callback<Socket>((resume) => {
      const connection = createConnection({ path: socket }, () => resume(Effect.succeed(connection)))
    }),
    (connection) => Effect.sync(() => connection.destroy())
  )

const readyForQuery = 0x5a

/** Sends `bytes` and waits for the ReadyForQuery that ends the answer. */
const roundTrip = (connection: Socket, bytes: Uint8Array) =>
  Effect.callback<void>((resume) => {
    const onData = (chunk: Buffer) => {
      // A ReadyForQuery message is the last 6 bytes: 'Z', int32 5, status.
      if (chunk.length >= 6 && chunk[chunk.length - 6] === readyForQuery) {
        connection.off("data", onData)
        resume(Effect.void)
      }
    }
    connection.on("data", onData)
    connection.write(bytes)
  })

const startupPacket = (): Uint8Array => {
  const body = new TextEncoder().encode("user\0postgres\0database\0postgres\0\0")
  const packet = new Uint8Array(8 + body.length)
  const view = new DataView(packet.buffer)
  view.setInt32(0, packet.length)
  view.setInt32(4, 196608)
  packet.set(body, 8)
  return packet
}

layer(Layer.merge(served, Reactivity.layer), { timeout: "3 minutes", excludeTestServices: true })(
  "PgliteServer",
  (it) => {
    it.effect(
      "runs the transactions of several connections one after the other",
      () =>
        Effect.gen(function* () {
          const [a, b] = yield* Effect.all([connect, connect])
          yield* a`INSERT INTO rate_budget_windows (key, window_start, count) VALUES ('counter', ${window}, 0)`
          const rounds = Array.from({ length: 15 }, (_, n) => n)
          yield* Effect.all(
            [
              Effect.forEach(rounds, () => increment(a), { concurrency: 3 }),
              Effect.forEach(rounds, () => increment(b), { concurrency: 3 }),
              Effect.forEach(rounds, () => b`SELECT 1`, { concurrency: 5 })
            ],
            { concurrency: "unbounded" }
          )
          const [row] = yield* b<{
            readonly count: number
          }>`SELECT count FROM rate_budget_windows WHERE key = 'counter'`
          assert.strictEqual(row?.count, 30)
        }),
      120_000
    )

    it.effect(
      "rolls back the transaction of a connection that vanished, and the others go on",
      () =>
        Effect.gen(function* () {
          const sql = yield* connect
          const raw = yield* rawClient(yield* Served)
          yield* roundTrip(raw, startupPacket())
          yield* roundTrip(raw, PgWire.encodeQuery("BEGIN"))
          yield* roundTrip(
            raw,
            PgWire.encodeQuery(
              `INSERT INTO rate_budget_windows (key, window_start, count) VALUES ('abandoned', '${window}', 1)`
            )
          )
          // The open transaction holds the backend: the other connection waits...
          const started = yield* Deferred.make<void>()
          const waiting = yield* Effect.forkChild(
            Deferred.succeed(started, undefined).pipe(
              Effect.andThen(
                sql<{ readonly n: number }>`SELECT count(*) AS n FROM rate_budget_windows WHERE key = 'abandoned'`
              )
            )
          )
          yield* Deferred.await(started)
          yield* Effect.sleep("300 millis")
          assert.isUndefined(waiting.pollUnsafe())
          // ...until its client vanishes; then the transaction is rolled back.
          raw.destroy()
          const [row] = yield* Fiber.join(waiting)
          assert.strictEqual(row?.n, 0)
        }),
      120_000
    )

    it.effect(
      "closes the statements a connection prepared when it goes",
      () =>
        Effect.gen(function* () {
          const a = yield* connect
          const prepared = a<{ readonly n: number }>`SELECT count(*) AS n FROM pg_prepared_statements`.pipe(
            Effect.map(([row]) => row?.n ?? -1)
          )
          yield* prepared
          const before = yield* prepared
          yield* Effect.scoped(
            Effect.gen(function* () {
              const b = yield* connect
              yield* b`SELECT 1 AS one`
              yield* b`SELECT 2 AS two`
              assert.isAtLeast(yield* prepared, before + 2)
            })
          )
          const after = yield* prepared.pipe(
            Effect.filterOrFail((n) => n === before),
            Effect.retry({ schedule: Schedule.spaced("50 millis"), times: 40 })
          )
          assert.strictEqual(after, before)
        }),
      120_000
    )
  }
)
