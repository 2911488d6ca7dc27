import { assert, layer } from "@effect/vitest"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { Effect, Schema } from "effect"
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
 * `marginctl store sync` killed with kill -9 while its transaction writes the catalog: the catalog is as
 * it was (no price moved, no history point, no audit event), the read it had begun is still pending,
 * and the next sync finishes that read, once. The same for the orders' part of a sync: killed while it
 * writes their sales, it leaves none, and the next sync finishes its orders read.
 */

// Enough items that a sync's transaction writes for a while (the kill lands midway); the sandbox sells each
// of them every week of 12 (SandboxOrders), so each first sync also writes some 12 lines an item.
const items = 10_000

const SalesJson = Schema.Struct({ order_lines: Schema.Number, items_updated: Schema.Number })

// Live services: the test polls the database on the real clock.
layer(TestDatabase.layer, { timeout: "5 minutes", excludeTestServices: true })(
  "marginctl store sync killed with kill -9",
  (it) => {
    it.effect(
      "leaves nothing half-applied, and the next sync resumes the same read",
      () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const workspaceId = textOf(
            (yield* marginctlJsonOnTestDatabase("workspace", "create", "--name", "Sync Kill Co", "--plan", "max")).id
          )
          const csv = tempFile(
            "items.csv",
            [
              "sku,title,currency,price,cost",
              ...Array.from({ length: items }, (_, n) => `S-${n},Item ${n},USD,10.00,1.00`)
            ].join("\n")
          )
          yield* marginctlJsonOnTestDatabase("catalog", "import", "--workspace", workspaceId, "--file", csv)
          yield* marginctlJsonOnTestDatabase("store", "connect", "--workspace", workspaceId, "--platform", "sandbox")
          const first = yield* marginctlJsonOnTestDatabase("store", "sync", "--workspace", workspaceId)
          assert.deepStrictEqual([first.full, first.unchanged], [true, items])

          // The merchant changes every price in the store: the next sync has a lot to write.
          yield* sql`UPDATE sandbox_store_variants SET price = 1200, updated_at = now() WHERE workspace_id = ${workspaceId}`
          const catalog = sql<{ readonly total: number; readonly points: number }>`
          SELECT sum(price)::int AS total, sum(jsonb_array_length(price_history))::int AS points
          FROM catalog_items WHERE workspace_id = ${workspaceId}`
          const before = yield* catalog
          // The first sync's orders gave each item its sales periods (SandboxOrders): points of the history.
          assert.strictEqual(before[0]?.total, items * 1000)
          const pointsBefore = before[0]?.points ?? 0
          const events = sql<{ readonly count: number }>`
          SELECT count(*)::int AS count FROM audit_events WHERE workspace_id = ${workspaceId} AND action = 'store.sync'`
          const syncState = sql<{ readonly pending: string | null; readonly syncedUpTo: Date | null }>`
          SELECT pending::text AS pending, synced_up_to FROM store_sync_states WHERE workspace_id = ${workspaceId}`
          const [applied] = yield* syncState

          // A backend writing the catalog inside a transaction: the sync is midway.
          const syncing = yield* startMarginctlOnTestDatabase("store", "sync", "--workspace", workspaceId, "--json")
          yield* untilWriting(sql, "catalog_items")
          assert.strictEqual(yield* syncing.kill9, "SIGKILL")
          assert.strictEqual(yield* syncing.stdout, "", "killed before it could answer")
          yield* untilNoneWriting(sql)
          assert.deepStrictEqual(yield* catalog, before, "nothing of the killed sync is left")
          assert.deepStrictEqual(yield* events, [{ count: 1 }])
          const [killed] = yield* syncState
          assert.match(killed?.pending ?? "", /sandbox:since:/, "the read it began is kept to be finished")
          assert.deepStrictEqual(killed?.syncedUpTo, applied?.syncedUpTo)

          const again = yield* marginctlJsonOnTestDatabase("store", "sync", "--workspace", workspaceId)
          assert.deepStrictEqual([again.full, again.price_changed, again.rejected_total], [false, items, 0])
          // One point more per item: the price the store's change replaced.
          assert.deepStrictEqual(yield* catalog, [{ total: items * 1200, points: pointsBefore + items }])
          assert.deepStrictEqual(yield* events, [{ count: 2 }])
          const [resumed] = yield* syncState
          assert.strictEqual(resumed?.pending, null)
        }),
      processTimeout
    )

    it.effect(
      "killed while it writes the orders' sales: no sale kept, the catalog's units as they were, the same orders read resumed",
      () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const workspaceId = textOf(
            (yield* marginctlJsonOnTestDatabase("workspace", "create", "--name", "Orders Kill Co", "--plan", "max")).id
          )
          const csv = tempFile(
            "orders-items.csv",
            [
              "sku,title,currency,price",
              ...Array.from({ length: items / 2 }, (_, n) => `O-${n},Item ${n},USD,10.00`)
            ].join("\n")
          )
          yield* marginctlJsonOnTestDatabase("catalog", "import", "--workspace", workspaceId, "--file", csv)
          yield* marginctlJsonOnTestDatabase("store", "connect", "--workspace", workspaceId, "--platform", "sandbox")
          const sales = sql<{ readonly lines: number; readonly units: number }>`
          SELECT (SELECT count(*)::int FROM store_sales WHERE workspace_id = ${workspaceId}) AS lines,
            (SELECT sum(units_sold_30d)::int FROM catalog_items WHERE workspace_id = ${workspaceId}) AS units`
          const ordersState = sql<{ readonly orders: string }>`
          SELECT orders::text AS orders FROM store_sync_states WHERE workspace_id = ${workspaceId}`

          // The first sync applies the variants, then writes the sales of 12 weeks of simulated orders.
          const syncing = yield* startMarginctlOnTestDatabase("store", "sync", "--workspace", workspaceId, "--json")
          yield* untilWriting(sql, "store_sales")
          assert.strictEqual(yield* syncing.kill9, "SIGKILL")
          yield* untilNoneWriting(sql)
          assert.deepStrictEqual(yield* sales, [{ lines: 0, units: 0 }], "no sale of the killed transaction is left")
          const [killed] = yield* ordersState
          assert.match(killed?.orders ?? "", /sandbox:orders:from:/, "the orders read it began is kept to be finished")

          const again = yield* marginctlJsonOnTestDatabase("store", "sync", "--workspace", workspaceId)
          const summary = Schema.decodeUnknownSync(SalesJson)(again.sales)
          assert.isAbove(summary.order_lines, items / 2)
          assert.strictEqual(summary.items_updated, items / 2)
          const [after] = yield* sales
          assert.strictEqual(after?.lines, summary.order_lines)
          assert.isAbove(after?.units ?? 0, 0)
          const [resumed] = yield* ordersState
          assert.match(resumed?.orders ?? "", /"pending": null/)
          // Finished, the read is not begun again: the next sync reads only the orders of the week in progress.
          const next = yield* marginctlJsonOnTestDatabase("store", "sync", "--workspace", workspaceId)
          assert.isAtMost(Schema.decodeUnknownSync(SalesJson)(next.sales).order_lines, items / 2)
        }),
      processTimeout
    )
  }
)
