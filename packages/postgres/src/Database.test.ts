import { assert, describe, it, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import * as Database from "./Database.ts"
import { DatabaseInfo } from "./DatabaseInfo.ts"
import { initializedDataDir } from "./testing/EmbeddedDataDir.ts"
import { TestDatabase } from "./testing/TestDatabase.ts"

const window = "2030-01-01T00:00:00Z"

describe("Database", () => {
  it("describes a PostgreSQL URL without its credentials", () => {
    assert.strictEqual(
      Database.describeUrl(Redacted.make("postgres://app:hunter2@db.internal:5432/margin?sslmode=require")),
      "PostgreSQL at db.internal:5432/margin"
    )
  })

  it.live("fails to build, saying what is wrong, when PostgreSQL does not answer", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        Layer.build(Database.layerPostgres(Redacted.make("postgres://app:hunter2@127.0.0.1:1/margin")))
      )
      assert.strictEqual(error._tag, "DatabaseUnavailable")
      assert.include(error.message, "cannot reach PostgreSQL at 127.0.0.1:1/margin")
      assert.include(error.message, "ECONNREFUSED")
      assert.notInclude(error.message, "hunter2")
    })
  )

  it.live(
    "opens the embedded database of DATA_DIR when DATABASE_URL is unset",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* initializedDataDir
        const info = yield* DatabaseInfo.pipe(
          Effect.provide(Database.layer),
          Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord({ DATA_DIR: dataDir }))
        )
        assert.deepStrictEqual(info, {
          kind: "embedded",
          role: "started",
          description: `embedded PostgreSQL in ${dataDir}`
        })
      }),
    120_000
  )
})

// On the embedded PostgreSQL, or DATABASE_URL's server: the client is multiplexed on both.
layer(TestDatabase.layer, { timeout: "3 minutes", excludeTestServices: true })("Database clients", (it) => {
  it.effect("keep transactions atomic while other queries share the connections", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO rate_budget_windows (key, window_start, count) VALUES ('atomic', ${window}, 0)`
      const increment = sql.withTransaction(
        Effect.gen(function* () {
          const [row] = yield* sql<{ readonly count: number }>`
            SELECT count FROM rate_budget_windows WHERE key = 'atomic' FOR UPDATE`
          yield* sql`UPDATE rate_budget_windows SET count = ${(row?.count ?? 0) + 1} WHERE key = 'atomic'`
        })
      )
      const rounds = Array.from({ length: 40 }, (_, n) => n)
      yield* Effect.all(
        [
          Effect.forEach(rounds, () => increment, { concurrency: 8 }),
          Effect.forEach(rounds, (n) => sql`SELECT ${n} AS n`, { concurrency: 16 })
        ],
        { concurrency: "unbounded" }
      )
      const [row] = yield* sql<{ readonly count: number }>`SELECT count FROM rate_budget_windows WHERE key = 'atomic'`
      assert.strictEqual(row?.count, 40)
    })
  )
})
