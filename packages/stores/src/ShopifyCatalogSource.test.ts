import { assert, layer } from "@effect/vitest"
import type { WorkspaceId } from "@margin/core/kernel/Ids"
import { StoreConnectionRepository } from "@margin/core/stores/StoreConnectionRepository"
import { StoreSyncs } from "@margin/core/stores/StoreSyncs"
import { catalogBySku } from "@margin/core/testing/CatalogItems"
import { aStoreConnection } from "@margin/core/testing/Fixtures"
import { seedWorkspace } from "@margin/core/testing/Seed"
import { Effect } from "effect"
import { FakeShopify, type FakeVariant, fakeShop, fakeShopifyDefaults } from "./testing/FakeShopify.ts"
import { shopifySyncOverFake } from "./testing/ShopifySyncOverFake.ts"

const operator = { _tag: "SystemActor", name: "test" } as const

const gid = (n: number) => `gid://shopify/ProductVariant/${n}`

const fakeVariant = (n: number, overrides: Partial<FakeVariant> = {}): FakeVariant => ({
  productId: `gid://shopify/Product/${Math.floor(n / 3)}`,
  price: "19.99",
  sku: `SH-${n}`,
  title: n % 3 === 0 ? "Default Title" : `Size ${n % 3}`,
  productTitle: `Tee ${Math.floor(n / 3)}`,
  productType: "Tees",
  tags: ["summer"],
  status: "ACTIVE",
  compareAtPrice: "24.00",
  cost: "8.5",
  inventory: 40,
  updatedAt: 1000,
  ...overrides
})

/** A workspace connected to the fake shop, which holds `count` variants. */
const shopWith = Effect.fnUntraced(function* (count: number) {
  const fake = yield* FakeShopify
  yield* fake.setVariants(new Map(Array.from({ length: count }, (_, n) => [gid(n + 1), fakeVariant(n + 1)])))
  const workspace = yield* seedWorkspace()
  yield* StoreConnectionRepository.use((connections) =>
    connections.connect(
      aStoreConnection({ workspaceId: workspace.id, platform: "shopify", shop: fakeShop }),
      "shpat_fake_token"
    )
  )
  return workspace
})

const syncOf = (workspaceId: WorkspaceId) =>
  StoreSyncs.use((syncs) => syncs.sync({ workspaceId, trigger: "manual", actor: operator }))

const itemsOf = catalogBySku

// Live clock: the adapter really sleeps between polls of its bulk operation.
// A page costs 102 points here (not the realistic 1002), so that waiting out THROTTLED takes a second.
layer(shopifySyncOverFake({ fake: { costs: { ...fakeShopifyDefaults.costs, variants: 102 } } }), {
  timeout: 60_000,
  excludeTestServices: true
})("ShopifyCatalogSource over the fake Shopify", (it) => {
  it.effect("a first sync reads the shop through one bulk operation and its JSONL, writing nothing", () =>
    Effect.gen(function* () {
      const workspace = yield* shopWith(900)
      const report = yield* syncOf(workspace.id)
      assert.deepStrictEqual([report.full, report.summary.created, report.summary.rejectedTotal], [true, 900, 0])
      const items = yield* itemsOf(workspace.id)
      const single = items.get("SH-3")
      const sized = items.get("SH-4")
      assert.deepStrictEqual(
        [single?.title, sized?.title, sized?.price, sized?.compareAtPrice, sized?.cost, sized?.inventory],
        ["Tee 1", "Tee 1 / Size 1", 1999, 2400, 850, 40]
      )
      assert.deepStrictEqual(sized?.tags, ["summer", "Tees", "status:active"])
      assert.deepStrictEqual([sized?.storeVariantRef, sized?.storeProductRef], [gid(4), "gid://shopify/Product/1"])
      const fake = yield* FakeShopify
      assert.strictEqual(yield* fake.bulkOperations, 1)
      assert.strictEqual((yield* fake.writes).length, 0)
    })
  )

  it.effect("the next sync pages through the variants updated since, with cursors, and waits out THROTTLED", () =>
    Effect.gen(function* () {
      const fake = yield* FakeShopify
      const bulksBefore = yield* fake.bulkOperations
      const workspace = yield* shopWith(600)
      yield* syncOf(workspace.id)
      const now = Date.now()
      for (let n = 1; n <= 300; n++) {
        yield* fake.setVariant(gid(n), fakeVariant(n, { price: "21.00", tags: ["autumn"], updatedAt: now }))
      }
      yield* fake.failNext({ _tag: "Throttled" }, { operation: "variants" })
      const report = yield* syncOf(workspace.id)
      assert.deepStrictEqual(
        [report.full, report.summary.updated, report.summary.priceChanged, report.summary.unchanged],
        [false, 300, 300, 0]
      )
      const pages = (yield* fake.requests).filter((request) => request.operation === "variants")
      // THROTTLED drained the bucket: the next page waited for its cost to be restored, then went through.
      assert.deepStrictEqual(
        pages.map((request) => request.answer),
        ["throttled", "ok", "ok"]
      )
      const items = yield* itemsOf(workspace.id)
      assert.deepStrictEqual(
        [items.get("SH-5")?.price, items.get("SH-5")?.tags],
        [2100, ["autumn", "Tees", "status:active"]]
      )
      assert.strictEqual(items.get("SH-301")?.price, 1999)
      assert.strictEqual((yield* fake.bulkOperations) - bulksBefore, 1)
    })
  )

  it.effect("a bulk operation that FAILED is begun again by the next sync; a 5xx leaves the catalog as it was", () =>
    Effect.gen(function* () {
      const fake = yield* FakeShopify
      const before = yield* fake.bulkOperations
      const workspace = yield* shopWith(50)
      yield* fake.endNextBulk("FAILED")
      const failed = yield* Effect.flip(syncOf(workspace.id))
      assert.deepStrictEqual(
        [failed._tag, failed._tag === "StoreReadFailed" && failed.restart],
        ["StoreReadFailed", true]
      )
      yield* fake.failNext({ _tag: "Status", status: 503 }, { operation: "bulk" })
      const unavailable = yield* Effect.flip(syncOf(workspace.id))
      assert.match(unavailable.message, /HTTP 503/)
      assert.strictEqual((yield* itemsOf(workspace.id)).size, 0)
      const report = yield* syncOf(workspace.id)
      assert.strictEqual(report.summary.created, 50)
      assert.strictEqual((yield* fake.bulkOperations) - before, 2)
    })
  )

  it.effect("a download that fails is tried again with the same bulk operation, not a new one", () =>
    Effect.gen(function* () {
      const fake = yield* FakeShopify
      const workspace = yield* shopWith(40)
      const before = yield* fake.bulkOperations
      yield* fake.failNext({ _tag: "Status", status: 500 }, { operation: "download" })
      const failed = yield* Effect.flip(syncOf(workspace.id))
      assert.match(failed.message, /could not be downloaded/)
      const pending = (yield* StoreSyncs.use((syncs) => syncs.state(workspace.id))).pending
      assert.strictEqual(pending?.ref, `gid://shopify/BulkOperation/${before + 1}`)
      const report = yield* syncOf(workspace.id)
      assert.strictEqual(report.summary.created, 40)
      assert.strictEqual((yield* fake.bulkOperations) - before, 1)
    })
  )
})
