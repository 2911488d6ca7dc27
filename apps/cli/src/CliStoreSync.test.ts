import { assert, layer } from "@effect/vitest"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import {
  assertFailed,
  marginctlJsonOnTestDatabase,
  marginctlOnTestDatabase,
  processTimeout,
  tempFile,
  textOf
} from "./testing/Marginctl.ts"

const SalesJson = Schema.Struct({ order_lines: Schema.Number, items_updated: Schema.Number })

/** marginctl store sync as a process, on a fresh migrated database, with the sandbox store. */

layer(TestDatabase.layer, { timeout: "5 minutes" })("marginctl store sync", (it) => {
  it.effect(
    "syncs the sandbox store: a full read first, then a price changed in the store arrives",
    () =>
      Effect.gen(function* () {
        const workspaceId = textOf(
          (yield* marginctlJsonOnTestDatabase("workspace", "create", "--name", "Sync Co", "--plan", "max")).id
        )
        const notConnected = yield* marginctlOnTestDatabase("store", "sync", "--workspace", workspaceId)
        assertFailed(notConnected, /store/i, 1)
        const csv = tempFile(
          "items.csv",
          ["sku,title,currency,price,cost,min_price", "M-1,Mug,USD,10.00,4.00,8.00", "M-2,Bowl,USD,6.00,2.00,"].join(
            "\n"
          )
        )
        yield* marginctlJsonOnTestDatabase("catalog", "import", "--workspace", workspaceId, "--file", csv)
        yield* marginctlJsonOnTestDatabase("store", "connect", "--workspace", workspaceId, "--platform", "sandbox")

        const first = yield* marginctlJsonOnTestDatabase("store", "sync", "--workspace", workspaceId)
        assert.deepStrictEqual([first.full, first.trigger, first.unchanged, first.updated], [true, "manual", 2, 0])

        const sql = yield* SqlClient.SqlClient
        // The merchant changes a price in the store; it becomes the catalog's, the rest of the item stays.
        yield* sql`UPDATE sandbox_store_variants SET price = 1150, updated_at = now()
          WHERE workspace_id = ${workspaceId} AND variant_ref = 'M-1'`
        const second = yield* marginctlJsonOnTestDatabase("store", "sync", "--workspace", workspaceId)
        assert.deepStrictEqual([second.full, second.price_changed], [false, 1])
        const [item] = yield* sql<{ readonly price: number; readonly cost: number; readonly floor: number }>`
          SELECT price::int AS price, cost::int AS cost, min_price::int AS floor FROM catalog_items
          WHERE workspace_id = ${workspaceId} AND sku = 'M-1'`
        assert.deepStrictEqual([item?.price, item?.cost, item?.floor], [1150, 400, 800])

        // The sandbox's simulated orders arrive too: units sold, and past periods at the price charged.
        const sales = Schema.decodeUnknownSync(SalesJson)(first.sales)
        assert.isAbove(sales.order_lines, 0)
        assert.strictEqual(sales.items_updated, 2)
        const [bowl] = yield* sql<{ readonly units: number; readonly history: string }>`
          SELECT units_sold_30d::int AS units, price_history::text AS history FROM catalog_items
          WHERE workspace_id = ${workspaceId} AND sku = 'M-2'`
        assert.isAbove(bowl?.units ?? 0, 0)
        assert.match(bowl?.history ?? "", /"price": 600, "units": \d+/)
        assert.match(bowl?.history ?? "", /"at": \d+/)
      }),
    processTimeout
  )
})
