import { assert, layer } from "@effect/vitest"
import type { WorkspaceId } from "@margin/core/kernel/Ids"
import { StoreConnectionRepository } from "@margin/core/stores/StoreConnectionRepository"
import { StoreSyncs } from "@margin/core/stores/StoreSyncs"
import { catalogBySku } from "@margin/core/testing/CatalogItems"
import { aStoreConnection } from "@margin/core/testing/Fixtures"
import { seedWorkspace } from "@margin/core/testing/Seed"
import { Effect } from "effect"
import { type FakeOrder, FakeShopify, type FakeVariant, fakeShop, fakeShopifyDefaults } from "./testing/FakeShopify.ts"
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
      // One for the variants, one for the orders (none yet).
      assert.strictEqual(yield* fake.bulkOperations, 2)
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
      // The first sync's two (variants, orders); the next one's reads are pages.
      assert.strictEqual((yield* fake.bulkOperations) - bulksBefore, 2)
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
      // The failed one, then the variants' and the orders' of the sync that went through.
      assert.strictEqual((yield* fake.bulkOperations) - before, 3)
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
      // The variants' operation, downloaded the second time, and the orders'.
      assert.strictEqual((yield* fake.bulkOperations) - before, 2)
    })
  )

  const day = 24 * 60 * 60 * 1000
  const orderGid = (n: number) => `gid://shopify/Order/${n}`
  /** Order `n`, placed `daysAgo` days ago: 2 units of variant 1 at 17.00 (after a discount), 1 of variant 2. */
  const fakeOrder = (n: number, daysAgo: number, overrides: Partial<FakeOrder> = {}): FakeOrder => {
    const placed = Date.now() - daysAgo * day
    return {
      processedAt: placed,
      updatedAt: placed,
      lineItems: [
        { id: n * 10 + 1, variantId: gid(1), quantity: 2, unitPrice: "17.00", originalUnitPrice: "19.99" },
        { id: n * 10 + 2, variantId: gid(2), quantity: 1, unitPrice: "19.99" }
      ],
      ...overrides
    }
  }

  it.effect("orders are read through a bulk operation, then paged by updated_at, at the price charged", () =>
    Effect.gen(function* () {
      const fake = yield* FakeShopify
      yield* fake.setOrders(
        new Map([
          [orderGid(1), fakeOrder(1, 3)],
          [orderGid(2), fakeOrder(2, 10)],
          // Older than 12 months: not read.
          [orderGid(3), fakeOrder(3, 400)],
          [orderGid(4), fakeOrder(4, 12, { refunds: [[{ lineItemId: 41, quantity: 2 }]] })]
        ])
      )
      const workspace = yield* shopWith(5)
      const first = yield* syncOf(workspace.id)
      assert.deepStrictEqual([first.sales?.lines, first.sales?.itemsUpdated], [6, 2])
      const items = yield* itemsOf(workspace.id)
      // Orders 1 and 2; order 4's two units of variant 1 were refunded.
      assert.deepStrictEqual([items.get("SH-1")?.unitsSold30d, items.get("SH-2")?.unitsSold30d], [4, 3])

      // A new order and a refund on order 1, read by the next sync in pages, one of them THROTTLED.
      const now = Date.now()
      for (let n = 5; n <= 16; n++) yield* fake.setOrder(orderGid(n), fakeOrder(n, 0))
      yield* fake.setOrder(
        orderGid(1),
        fakeOrder(1, 3, { updatedAt: now, refunds: [[{ lineItemId: 11, quantity: 1 }]] })
      )
      yield* fake.failNext({ _tag: "Throttled" }, { operation: "orders" })
      const requestsBefore = (yield* fake.requests).length
      const next = yield* syncOf(workspace.id)
      assert.deepStrictEqual([next.full, next.sales?.lines], [false, 26])
      const pages = (yield* fake.requests).slice(requestsBefore).filter((request) => request.operation === "orders")
      // 13 orders changed: two pages of 10, the first sent again after THROTTLED.
      assert.deepStrictEqual(
        pages.map((request) => request.answer),
        ["throttled", "ok", "ok"]
      )
      const after = yield* itemsOf(workspace.id)
      assert.deepStrictEqual([after.get("SH-1")?.unitsSold30d, after.get("SH-2")?.unitsSold30d], [4 - 1 + 24, 3 + 12])
      // Never a write: the sync only reads.
      assert.strictEqual((yield* fake.writes).length, 0)
    })
  )

  it.effect("an orders bulk operation that FAILED or expired is begun again; a 5xx page is tried again later", () =>
    Effect.gen(function* () {
      const fake = yield* FakeShopify
      yield* fake.setOrders(new Map([[orderGid(1), fakeOrder(1, 2)]]))
      const workspace = yield* shopWith(3)
      // The variants' operation completes; the orders' fails.
      yield* fake.endNextOrdersBulk("FAILED")
      const failed = yield* Effect.flip(syncOf(workspace.id))
      assert.deepStrictEqual(
        [failed._tag, failed._tag === "StoreReadFailed" && failed.restart],
        ["StoreReadFailed", true]
      )
      const state = yield* StoreSyncs.use((syncs) => syncs.state(workspace.id))
      assert.deepStrictEqual([state.orders.pending, state.syncedUpTo === null], [null, false])
      assert.strictEqual((yield* itemsOf(workspace.id)).get("SH-1")?.unitsSold30d, 0)
      // Its result's URL expired before the download: the poll says EXPIRED, and the read is begun again.
      yield* fake.endNextOrdersBulk("EXPIRED")
      yield* Effect.flip(syncOf(workspace.id))
      const report = yield* syncOf(workspace.id)
      assert.deepStrictEqual([report.sales?.lines, (yield* itemsOf(workspace.id)).get("SH-1")?.unitsSold30d], [2, 2])
      // An incremental page answered 503: the sync fails, the catalog's sales stay, the next sync reads them.
      yield* fake.setOrder(orderGid(2), fakeOrder(2, 0))
      yield* fake.failNext({ _tag: "Status", status: 503 }, { operation: "orders" })
      const unavailable = yield* Effect.flip(syncOf(workspace.id))
      assert.match(unavailable.message, /HTTP 503/)
      assert.strictEqual((yield* itemsOf(workspace.id)).get("SH-1")?.unitsSold30d, 2)
      yield* syncOf(workspace.id)
      assert.strictEqual((yield* itemsOf(workspace.id)).get("SH-1")?.unitsSold30d, 4)
    })
  )
})
