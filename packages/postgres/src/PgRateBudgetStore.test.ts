import { assert, layer } from "@effect/vitest"
import { RateBudget } from "@margin/core/access/RateBudget"
import { rateBudgetContract, strictRateBudget } from "@margin/core/testing/RateBudgetContract"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as PgIdGenerator from "./PgIdGenerator.ts"
import * as PgRateBudgetStore from "./PgRateBudgetStore.ts"
import { backend } from "./testing/PgTestAdapters.ts"
import { TestDatabase } from "./testing/TestDatabase.ts"

const budget = (limit: number) =>
  Layer.merge(strictRateBudget.pipe(Layer.provide(PgRateBudgetStore.layer({ limit }))), PgIdGenerator.layer).pipe(
    Layer.provideMerge(TestDatabase.layer)
  )

rateBudgetContract(backend, budget(60))
rateBudgetContract(backend, budget(3), 3)

layer(budget(5), { timeout: "2 minutes" })(`PgRateBudgetStore (${backend})`, (it) => {
  it.effect("a key keeps about one row: its older windows go when the next one opens", () =>
    Effect.gen(function* () {
      const rate = yield* RateBudget
      const sql = yield* SqlClient.SqlClient
      const key = `token:${crypto.randomUUID()}`
      const minute = 60_000
      const start = 1_736_942_400_000
      for (let n = 0; n < 3; n++) yield* rate.consume(key, start + n * minute)
      const rows = yield* sql<{ readonly count: number }>`SELECT count FROM rate_budget_windows WHERE key = ${key}`
      assert.deepStrictEqual(
        rows.map((row) => row.count),
        [1]
      )
    })
  )

  it.effect("counts the same on the table made unlogged (the operator's option in docs/operations.md)", () =>
    Effect.gen(function* () {
      const rate = yield* RateBudget
      const sql = yield* SqlClient.SqlClient
      const key = `token:${crypto.randomUUID()}`
      const now = 1_736_942_400_000
      // Logged again however the middle ends, so that the other tests of the layer see the default table.
      const [persistence, decisions] = yield* Effect.acquireUseRelease(
        sql`ALTER TABLE rate_budget_windows SET UNLOGGED`,
        () =>
          Effect.all([
            sql<{ readonly relpersistence: string }>`
              SELECT relpersistence FROM pg_class WHERE oid = 'rate_budget_windows'::regclass`,
            Effect.forEach([0, 1, 2, 3, 4, 5], (n) => rate.consume(key, now + n))
          ]),
        () => Effect.orDie(sql`ALTER TABLE rate_budget_windows SET LOGGED`)
      )
      assert.strictEqual(persistence[0]?.relpersistence, "u")
      assert.deepStrictEqual(
        decisions.map((decision) => decision._tag),
        ["Allowed", "Allowed", "Allowed", "Allowed", "Allowed", "Limited"]
      )
    })
  )
})
