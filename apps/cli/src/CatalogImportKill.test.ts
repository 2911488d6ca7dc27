import { assert, layer } from "@effect/vitest"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import {
  marginctlJsonOnTestDatabase,
  processTimeout,
  startMarginctlOnTestDatabase,
  tempFile,
  textOf
} from "./testing/Marginctl.ts"
import { untilNoneWriting, untilWriting } from "./testing/Writers.ts"

/**
 * `marginctl catalog import` killed with kill -9 while its transaction is writing: the catalog is
 * as it was before the import (no item half-updated, no price-history point, no audit event), and
 * the same import run again completes, once.
 */

const items = 30_000
const csv = (lines: ReadonlyArray<string>) => ["sku,title,currency,price,cost,units_sold_30d", ...lines].join("\n")
const line = (n: number, price: string) => `K-${n},Item ${n},USD,${price},1.00,5`

// Live services: the test polls the database on the real clock.
layer(TestDatabase.layer, { timeout: "5 minutes", excludeTestServices: true })(
  "marginctl catalog import killed with kill -9",
  (it) => {
    it.effect(
      "leaves no half-applied import, and the import run again completes",
      () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const workspaceId = textOf(
            (yield* marginctlJsonOnTestDatabase("workspace", "create", "--name", "Kill Co", "--plan", "max")).id
          )
          const first = tempFile("v1.csv", csv(Array.from({ length: items }, (_, n) => line(n, "10.00"))))
          const seeded = yield* marginctlJsonOnTestDatabase(
            "catalog",
            "import",
            "--workspace",
            workspaceId,
            "--file",
            first
          )
          assert.strictEqual(seeded.created, items)
          // Every price moves, and as many new items again: a file that takes a while to write.
          const second = tempFile(
            "v2.csv",
            csv(Array.from({ length: 2 * items }, (_, n) => line(n, n < items ? "11.00" : "3.00")))
          )
          const state = sql<{ readonly items: number; readonly total: number; readonly points: number }>`
          SELECT count(*)::int AS items, sum(price)::int AS total,
            sum(jsonb_array_length(price_history))::int AS points
          FROM catalog_items WHERE workspace_id = ${workspaceId}`
          const before = yield* state
          assert.deepStrictEqual(before, [{ items, total: items * 1000, points: 0 }])
          const events = sql<{ readonly count: number }>`
          SELECT count(*)::int AS count FROM audit_events
          WHERE workspace_id = ${workspaceId} AND action = 'catalog.import'`
          assert.deepStrictEqual(yield* events, [{ count: 1 }])

          // A backend with a transaction id has written in its transaction: the import is midway.
          const importing = yield* startMarginctlOnTestDatabase(
            "catalog",
            "import",
            "--workspace",
            workspaceId,
            "--file",
            second,
            "--json"
          )
          yield* untilWriting(sql)
          assert.strictEqual(yield* importing.kill9, "SIGKILL")
          assert.strictEqual(yield* importing.stdout, "", "killed before it could answer")
          // The server sees the connection drop and rolls the transaction back.
          yield* untilNoneWriting(sql)
          assert.deepStrictEqual(yield* state, before, "nothing of the killed import is left")
          assert.deepStrictEqual(yield* events, [{ count: 1 }])

          const again = yield* marginctlJsonOnTestDatabase(
            "catalog",
            "import",
            "--workspace",
            workspaceId,
            "--file",
            second
          )
          assert.deepStrictEqual(
            [again.created, again.updated, again.price_changed, again.rejected_total],
            [items, items, items, 0]
          )
          assert.deepStrictEqual(yield* state, [{ items: 2 * items, total: items * 1100 + items * 300, points: items }])
          assert.deepStrictEqual(yield* events, [{ count: 2 }])
        }),
      processTimeout
    )
  }
)
