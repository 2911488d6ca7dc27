import { assert, layer } from "@effect/vitest"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import {
  assertFailed,
  marginctlJsonOnTestDatabase,
  marginctlOnTestDatabase,
  processTimeout,
  tempFile,
  textOf
} from "./testing/Marginctl.ts"

/** marginctl catalog and store commands as processes, on a fresh migrated database (see CliAccounts.test.ts). */

layer(TestDatabase.layer, { timeout: "5 minutes" })(
  "marginctl as a process: catalog import and the sandbox store",
  (it) => {
    it.effect(
      "imports a catalog by sku, reporting each bad line while the good ones import",
      () =>
        Effect.gen(function* () {
          const workspaceId = textOf(
            (yield* marginctlJsonOnTestDatabase("workspace", "create", "--name", "Catalog Co", "--plan", "max")).id
          )
          const csv = tempFile(
            "items.csv",
            [
              "sku,title,tags,currency,price,cost,compare_at_price,min_price,max_price,inventory,units_sold_30d",
              "A-1,Blue mug,kitchen;mugs,USD,12.99,5.50,,,,10,3",
              "A-2,,kitchen,USD,3.00,,,,,,",
              "A-3,Plate,kitchen,USD,4.50,2,,,,,",
              "A-4,Bowl,kitchen,USD,abc,,,,,,",
              "",
              'A-5,"Jug, large",,EUR,20,,,,,,'
            ].join("\n")
          )
          const first = yield* marginctlJsonOnTestDatabase(
            "catalog",
            "import",
            "--workspace",
            workspaceId,
            "--file",
            csv
          )
          assert.deepStrictEqual([first.created, first.updated, first.rejected_total, first.dry_run], [3, 0, 2, false])
          assert.deepStrictEqual(first.rejected, [
            { line: 3, error: "sku A-2 is not in the catalog: a new item needs title" },
            { line: 5, error: 'price: "abc" is not an amount like 12.99' }
          ])
          assert.strictEqual(first.catalog_items, 3)

          const sql = yield* SqlClient.SqlClient
          // The store-reference file: sku and price only. Everything else of A-1 stays.
          const prices = tempFile("prices.csv", ["sku,price", "A-1,14.99", "A-3,4.50"].join("\n"))
          const itemA1 = sql<{
            readonly price: number
            readonly cost: number | null
            readonly tags: ReadonlyArray<string>
            readonly inventory: number | null
            readonly unitsSold30d: number
            readonly points: number
          }>`
          SELECT price, cost, tags, inventory, units_sold_30d, jsonb_array_length(price_history) AS points
          FROM catalog_items WHERE workspace_id = ${workspaceId} AND sku = 'A-1'`
          const original = yield* itemA1
          const dry = yield* marginctlJsonOnTestDatabase(
            "catalog",
            "import",
            "--workspace",
            workspaceId,
            "--file",
            prices,
            "--dry-run"
          )
          assert.deepStrictEqual(
            [dry.dry_run, dry.updated, dry.price_changed, dry.cost_changed, dry.other_changed, dry.unchanged],
            [true, 1, 1, 0, 0, 1]
          )
          assert.deepStrictEqual(yield* itemA1, original, "a dry run writes nothing")
          const real = yield* marginctlJsonOnTestDatabase(
            "catalog",
            "import",
            "--workspace",
            workspaceId,
            "--file",
            prices
          )
          assert.deepStrictEqual({ ...real, dry_run: true }, dry)
          assert.deepStrictEqual(yield* itemA1, [{ ...original[0], price: 1499, points: 1 }])
          assert.deepStrictEqual(
            [original[0]?.cost, original[0]?.tags],
            [550, ["kitchen", "mugs"]],
            "cost and tags were there to keep"
          )

          const jsonl = tempFile(
            "items.jsonl",
            [
              JSON.stringify({ sku: "A-1", title: "Blue mug", currency: "USD", price: "13.49", cost: 5.5 }),
              JSON.stringify({
                sku: "B-1",
                title: "Teapot",
                tags: ["kitchen"],
                currency: "USD",
                price: 30,
                store_product_ref: "gid://shopify/Product/7",
                store_variant_ref: "gid://shopify/ProductVariant/42"
              }),
              "{not json"
            ].join("\n")
          )
          const second = yield* marginctlJsonOnTestDatabase(
            "catalog",
            "import",
            "--workspace",
            workspaceId,
            "--file",
            jsonl
          )
          assert.deepStrictEqual([second.created, second.updated, second.price_changed], [1, 1, 1])
          assert.deepStrictEqual(second.rejected, [{ line: 3, error: "not valid JSON" }])
          const stored = yield* sql<{
            readonly sku: string
            readonly price: number
            readonly storeProductRef: string | null
            readonly storeVariantRef: string | null
          }>`
          SELECT sku, price, store_product_ref, store_variant_ref FROM catalog_items
          WHERE workspace_id = ${workspaceId} AND sku IN ('A-1', 'B-1') ORDER BY sku`
          assert.deepStrictEqual(
            stored.map((row) => [row.sku, row.price, row.storeProductRef, row.storeVariantRef]),
            [
              ["A-1", 1349, null, null],
              ["B-1", 3000, "gid://shopify/Product/7", "gid://shopify/ProductVariant/42"]
            ]
          )

          assertFailed(
            yield* marginctlOnTestDatabase(
              "catalog",
              "import",
              "--workspace",
              workspaceId,
              "--file",
              tempFile("items.xlsx", "x")
            ),
            /name it \.csv or \.jsonl/,
            2
          )
          assertFailed(
            yield* marginctlOnTestDatabase(
              "catalog",
              "import",
              "--workspace",
              workspaceId,
              "--file",
              tempFile("bad.csv", "sku,name\n")
            ),
            /bad\.csv: line 1: header: unknown column "name"/,
            1
          )

          const connected = yield* marginctlJsonOnTestDatabase(
            "store",
            "connect",
            "--workspace",
            workspaceId,
            "--platform",
            "sandbox"
          )
          assert.deepStrictEqual(
            [connected.platform, connected.status, connected.sandbox_variants],
            ["sandbox", "connected", 4]
          )
          const variants = yield* sql<{ readonly variantRef: string; readonly price: number }>`
          SELECT variant_ref, price FROM sandbox_store_variants WHERE workspace_id = ${workspaceId} ORDER BY variant_ref`
          assert.deepStrictEqual(
            variants.map((row) => [row.variantRef, row.price]),
            [
              ["A-1", 1349],
              ["A-3", 450],
              ["A-5", 2000],
              // The sandbox knows an item by its store variant ref, else by its sku.
              ["gid://shopify/ProductVariant/42", 3000]
            ]
          )
          const writes = yield* marginctlJsonOnTestDatabase("store", "writes", "--workspace", workspaceId)
          assert.deepStrictEqual(writes.writes, [])
          assertFailed(
            yield* marginctlOnTestDatabase("store", "connect", "--workspace", workspaceId, "--platform", "shopify"),
            /needs --shop DOMAIN and --access-token/,
            2
          )
          assert.isTrue(
            (yield* marginctlJsonOnTestDatabase("store", "disconnect", "--workspace", workspaceId)).disconnected
          )
        }),
      processTimeout
    )
  }
)
