/**
 * The store sync use case over a set of adapters (memory, PostgreSQL) and a scripted store: what a
 * full and an incremental sync bring in, what they keep, and what a failure or a crash leaves.
 */
import { assert, layer } from "@effect/vitest"
import { Clock, Effect, type Layer } from "effect"
import { TestClock } from "effect/testing"
import { CatalogRepository } from "../catalog/CatalogRepository.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import { StoreConnectionRepository } from "../stores/StoreConnectionRepository.ts"
import type { StoreOrderLine } from "../stores/StoreOrderLine.ts"
import { salesPeriodMillis } from "../stores/StoreSalePeriods.ts"
import { StoreSyncs } from "../stores/StoreSyncs.ts"
import type { StoreVariant } from "../stores/StoreVariant.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { catalogBySku, itemOf } from "./CatalogItems.ts"
import { aStoreConnection, usd } from "./Fixtures.ts"
import { ScriptedStoreCatalog, type ScriptedVariant } from "./ScriptedStoreCatalog.ts"
import { seedWorkspace } from "./Seed.ts"

export type StoreSyncSuiteServices =
  | StoreSyncs
  | ScriptedStoreCatalog
  | CatalogRepository
  | StoreConnectionRepository
  | WorkspaceRepository
  | IdGenerator

const operator = { _tag: "SystemActor", name: "suite" } as const

const syncNow = (workspaceId: WorkspaceId) =>
  StoreSyncs.use((syncs) => syncs.sync({ workspaceId, trigger: "manual", actor: operator }))

const allItems = catalogBySku

const variant = (n: number, overrides: Partial<StoreVariant> = {}): StoreVariant => ({
  sku: `S-${n}`,
  variantRef: `gid://shopify/ProductVariant/${n}`,
  productRef: `gid://shopify/Product/${Math.floor(n / 2)}`,
  title: `Mug ${n} / Blue`,
  currency: usd,
  price: "12.00",
  compareAtPrice: "15.00",
  cost: "5.00",
  inventory: 7,
  tags: ["kitchen"],
  productType: "Mugs",
  status: "ACTIVE",
  ...overrides
})

const at =
  (updatedAt: number) =>
  (scripted: StoreVariant): ScriptedVariant => ({ variant: scripted, updatedAt })

/** A connected workspace whose store holds `variants`, changed at time 0. */
const connectedShop = Effect.fnUntraced(function* (variants: ReadonlyArray<StoreVariant>) {
  const workspace = yield* seedWorkspace()
  yield* StoreConnectionRepository.use((connections) =>
    connections.connect(aStoreConnection({ workspaceId: workspace.id, platform: "shopify", shop: "acme" }), "token")
  )
  yield* ScriptedStoreCatalog.use((store) => store.put(workspace.id, variants.map(at(0))))
  return workspace
})

const hour = 60 * 60 * 1000
const day = 24 * hour

/**
 * A line of an order placed on day `soldOn` after `base`. The suite's clock moves on from test to test:
 * an orders test runs at day 1000 after a `base` on the grid of sales periods (StoreSalePeriods).
 */
const orderLine = (
  base: number,
  lineRef: string,
  sku: string,
  soldOn: number,
  quantity: number,
  unitPrice: string,
  refunded = 0
): StoreOrderLine => ({
  lineRef,
  sku,
  soldAt: base + soldOn * day,
  quantity,
  refunded,
  currency: usd,
  unitPrice
})

/** A shop with two variants and, at day 1000, a year of orders of S-1 (periods of 30 days end at days 960, 990). */
const shopWithOrders = Effect.fnUntraced(function* () {
  const now = yield* Clock.currentTimeMillis
  const base = Math.ceil((now + day) / salesPeriodMillis) * salesPeriodMillis
  yield* TestClock.adjust(base + 1000 * day - now)
  const workspace = yield* connectedShop([variant(1), variant(2)])
  const placed = (line: StoreOrderLine) => ({ line, updatedAt: line.soldAt })
  yield* ScriptedStoreCatalog.use((store) =>
    store.putOrderLines(
      workspace.id,
      [
        orderLine(base, "L1", "S-1", 945, 3, "10.00"),
        orderLine(base, "L2", "S-1", 950, 1, "14.00"),
        // Refunded in full: sold nothing.
        orderLine(base, "L3", "S-1", 955, 2, "9.00", 2),
        orderLine(base, "L4", "S-1", 995, 5, "12.00", 1),
        orderLine(base, "L5", "S-1", 975, 1, "12.00"),
        orderLine(base, "L6", "GONE", 995, 1, "3.00"),
        orderLine(base, "L7", "", 995, 1, "3.00"),
        // More than 12 months ago: not read.
        orderLine(base, "L8", "S-1", 500, 9, "1.00")
      ].map(placed)
    )
  )
  return { workspace, base, at: (days: number) => base + days * day }
})

export const storeSyncSuite = <E>(name: string, services: Layer.Layer<StoreSyncSuiteServices, E>) =>
  layer(services, { timeout: 120_000 })(`StoreSyncs (${name})`, (it) => {
    it.effect("a first sync reads every variant into the catalog, with what the store says of it", () =>
      Effect.gen(function* () {
        yield* TestClock.adjust(hour)
        const start = yield* Clock.currentTimeMillis
        const workspace = yield* connectedShop(Array.from({ length: 300 }, (_, n) => variant(n)))
        const report = yield* syncNow(workspace.id)
        assert.deepStrictEqual([report.full, report.summary.created, report.summary.rejectedTotal], [true, 300, 0])
        const item = itemOf(yield* allItems(workspace.id), "S-7")
        assert.deepStrictEqual(
          [item.title, item.price, item.compareAtPrice, item.cost, item.inventory, item.currency],
          ["Mug 7 / Blue", 1200, 1500, 500, 7, "USD"]
        )
        assert.deepStrictEqual(item.tags, ["kitchen", "Mugs", "status:active"])
        assert.deepStrictEqual(
          [item.storeProductRef, item.storeVariantRef],
          ["gid://shopify/Product/3", "gid://shopify/ProductVariant/7"]
        )
        const state = yield* StoreSyncs.use((syncs) => syncs.state(workspace.id))
        assert.deepStrictEqual([state.syncedUpTo, state.pending, state.last?.summary.created], [start, null, 300])
      })
    )

    it.effect("the next sync reads only what changed since, and keeps what the store does not say", () =>
      Effect.gen(function* () {
        yield* TestClock.adjust(hour)
        const workspace = yield* connectedShop([variant(1), variant(2), variant(3)])
        yield* syncNow(workspace.id)
        // Something only we know about the item: the store never mentions it.
        yield* CatalogRepository.use((catalog) =>
          catalog.applyImport(workspace.id, [{ line: 1, patch: { sku: "S-2", minPrice: "9.00" } }], (current) =>
            current === undefined
              ? { _tag: "Rejected", error: "missing" }
              : {
                  _tag: "Updated",
                  item: { ...current, minPrice: 900 },
                  priceChanged: false,
                  costChanged: false,
                  otherChanged: true,
                  stalePrice: false
                }
          )
        )
        yield* TestClock.adjust(hour)
        const changed = variant(2, { price: "13.50", cost: null, tags: ["kitchen", "sale"], inventory: null })
        const changedAt = yield* Clock.currentTimeMillis
        yield* ScriptedStoreCatalog.use((store) => store.put(workspace.id, [at(changedAt)(changed)]))
        yield* TestClock.adjust(hour)
        const report = yield* syncNow(workspace.id)
        assert.deepStrictEqual(
          [report.full, report.summary.updated, report.summary.priceChanged, report.summary.costChanged],
          [false, 1, 1, 1]
        )
        assert.strictEqual(report.summary.created + report.summary.unchanged + report.summary.updated, 1)
        const items = yield* allItems(workspace.id)
        const item = itemOf(items, "S-2")
        assert.deepStrictEqual(
          [item.price, item.cost, item.inventory, item.minPrice, item.tags],
          [1350, null, null, 900, ["kitchen", "sale", "Mugs", "status:active"]]
        )
        // The outgoing price is one point of the history, as the engine reads it.
        assert.deepStrictEqual(item.priceHistory, [{ price: 1200, units: 0 }])
        assert.strictEqual(itemOf(items, "S-1").price, 1200)
      })
    )

    it.effect("a day after the last full read, a sync reads the whole store again", () =>
      Effect.gen(function* () {
        yield* TestClock.adjust(hour)
        const workspace = yield* connectedShop([variant(1), variant(2)])
        yield* syncNow(workspace.id)
        yield* TestClock.adjust(hour)
        const incremental = yield* syncNow(workspace.id)
        assert.deepStrictEqual([incremental.full, incremental.summary.unchanged], [false, 0])
        yield* TestClock.adjust(24 * hour)
        const full = yield* syncNow(workspace.id)
        assert.deepStrictEqual([full.full, full.summary.unchanged], [true, 2])
        const state = yield* StoreSyncs.use((syncs) => syncs.state(workspace.id))
        assert.strictEqual(state.fullSyncedUpTo, full.startedAt)
      })
    )

    it.effect("a sync that fails midway leaves the catalog as it was, and the next one finishes the same read", () =>
      Effect.gen(function* () {
        yield* TestClock.adjust(hour)
        const start = yield* Clock.currentTimeMillis
        const workspace = yield* connectedShop(Array.from({ length: 50 }, (_, n) => variant(n)))
        yield* ScriptedStoreCatalog.use((store) =>
          store.failNext(workspace.id, "variants", { restart: false, afterVariants: 30 })
        )
        const failure = yield* Effect.flip(syncNow(workspace.id))
        assert.strictEqual(failure._tag, "StoreReadFailed")
        assert.strictEqual((yield* allItems(workspace.id)).size, 0)
        const pending = (yield* StoreSyncs.use((syncs) => syncs.state(workspace.id))).pending
        assert.deepStrictEqual([pending?.ref, pending?.startedAt], ["read-1", start])
        yield* TestClock.adjust(hour)
        const report = yield* syncNow(workspace.id)
        assert.strictEqual(report.summary.created, 50)
        assert.strictEqual(yield* ScriptedStoreCatalog.use((store) => store.begun(workspace.id)), 1)
        const state = yield* StoreSyncs.use((syncs) => syncs.state(workspace.id))
        // Changes made after the read began are read by the next sync.
        assert.deepStrictEqual([state.syncedUpTo, state.pending], [start, null])
      })
    )

    it.effect("a price applied by a write-back after the read began is not put back by that read", () =>
      Effect.gen(function* () {
        yield* TestClock.adjust(hour)
        const workspace = yield* connectedShop([variant(1)])
        yield* syncNow(workspace.id)
        yield* TestClock.adjust(hour)
        const changedAt = yield* Clock.currentTimeMillis
        yield* ScriptedStoreCatalog.use((store) =>
          Effect.andThen(
            store.put(workspace.id, [at(changedAt)(variant(1, { cost: "6.00" }))]),
            store.failNext(workspace.id, "variants", { restart: false })
          )
        )
        yield* Effect.flip(syncNow(workspace.id))
        // The write-back lands after the read began; the read still saw the old price.
        yield* TestClock.adjust(hour)
        const item = itemOf(yield* allItems(workspace.id), "S-1")
        yield* CatalogRepository.use((catalog) => catalog.setPrice(workspace.id, item.id, 1400, changedAt + hour))
        const report = yield* syncNow(workspace.id)
        assert.deepStrictEqual([report.summary.stalePrice, report.summary.costChanged], [1, 1])
        const after = itemOf(yield* allItems(workspace.id), "S-1")
        assert.deepStrictEqual([after.price, after.cost], [1400, 600])
      })
    )

    it.effect("a read the store lost is begun again; a variant without a sku is rejected, the rest applied", () =>
      Effect.gen(function* () {
        yield* TestClock.adjust(hour)
        const workspace = yield* connectedShop([variant(1), variant(2, { sku: " " })])
        yield* ScriptedStoreCatalog.use((store) => store.failNext(workspace.id, "ready", { restart: true }))
        const lost = yield* Effect.flip(syncNow(workspace.id))
        assert.deepStrictEqual(
          [lost._tag, (yield* StoreSyncs.use((syncs) => syncs.state(workspace.id))).pending],
          ["StoreReadFailed", null]
        )
        const report = yield* syncNow(workspace.id)
        assert.strictEqual(yield* ScriptedStoreCatalog.use((store) => store.begun(workspace.id)), 2)
        assert.deepStrictEqual(report.summary.rejected, [
          { line: 2, error: "variant gid://shopify/ProductVariant/2 has no sku" }
        ])
        assert.strictEqual(report.summary.created, 1)
      })
    )

    it.effect(
      "orders become the units sold in the last 30 days and a point per complete period at the price charged",
      () =>
        Effect.gen(function* () {
          const { workspace, at } = yield* shopWithOrders()
          assert.strictEqual(yield* Clock.currentTimeMillis, at(1000))
          const report = yield* syncNow(workspace.id)
          assert.deepStrictEqual(report.sales, {
            lines: 6,
            linesLeftOut: 1,
            itemsUpdated: 1,
            itemsUnchanged: 0,
            skusNotInCatalog: 1
          })
          const items = yield* allItems(workspace.id)
          const item = itemOf(items, "S-1")
          // Days 975 and 995, refunds deducted.
          assert.strictEqual(item.unitsSold30d, 5)
          assert.deepStrictEqual(item.priceHistory, [
            // 3 units at 10.00 and 1 at 14.00: the units-weighted mean price charged.
            { price: 1100, units: 4, at: at(960) },
            { price: 1200, units: 1, at: at(990) }
          ])
          assert.deepStrictEqual([itemOf(items, "S-2").unitsSold30d, itemOf(items, "S-2").priceHistory], [0, []])
          // The catalog's price is the store's, untouched by what orders were charged.
          assert.strictEqual(item.price, 1200)
        })
    )

    it.effect("the same orders read again add nothing; a refund read later replaces its period's point", () =>
      Effect.gen(function* () {
        const { workspace, base, at } = yield* shopWithOrders()
        yield* syncNow(workspace.id)
        const before = itemOf(yield* allItems(workspace.id), "S-1")
        yield* TestClock.adjust(hour)
        const again = yield* syncNow(workspace.id)
        // Nothing read, and nothing the hour moved: no item recounted.
        assert.deepStrictEqual([again.sales?.lines, again.sales?.itemsUpdated, again.sales?.itemsUnchanged], [0, 0, 0])
        // A full read of the same orders (a day later) changes nothing either.
        yield* TestClock.adjust(day)
        const full = yield* syncNow(workspace.id)
        assert.deepStrictEqual([full.full, full.sales?.lines, full.sales?.itemsUpdated], [true, 6, 0])
        assert.deepStrictEqual(itemOf(yield* allItems(workspace.id), "S-1").priceHistory, before.priceHistory)
        // A unit of L1 comes back: its order is updated, and the period it was sold in counts one less.
        const refundedAt = yield* Clock.currentTimeMillis
        yield* ScriptedStoreCatalog.use((store) =>
          store.putOrderLines(workspace.id, [
            { line: orderLine(base, "L1", "S-1", 945, 3, "10.00", 1), updatedAt: refundedAt }
          ])
        )
        yield* TestClock.adjust(hour)
        const refunded = yield* syncNow(workspace.id)
        assert.deepStrictEqual([refunded.full, refunded.sales?.lines, refunded.sales?.itemsUpdated], [false, 1, 1])
        assert.deepStrictEqual(itemOf(yield* allItems(workspace.id), "S-1").priceHistory, [
          { price: 1133, units: 3, at: at(960) },
          { price: 1200, units: 1, at: at(990) }
        ])
      })
    )

    it.effect("time alone moves sales out of the last 30 days and completes periods", () =>
      Effect.gen(function* () {
        const { workspace, base, at } = yield* shopWithOrders()
        // S-2 sold two units 29.5 days before the first sync.
        yield* ScriptedStoreCatalog.use((store) =>
          store.putOrderLines(workspace.id, [{ line: orderLine(base, "L9", "S-2", 970.5, 2, "11.00"), updatedAt: 0 }])
        )
        yield* syncNow(workspace.id)
        assert.strictEqual(itemOf(yield* allItems(workspace.id), "S-2").unitsSold30d, 2)
        // Half a day on, an incremental sync reads no order, yet S-2's sale has left the last 30 days.
        yield* TestClock.adjust(day / 2 + hour)
        const soon = yield* syncNow(workspace.id)
        assert.deepStrictEqual([soon.full, soon.sales?.lines, soon.sales?.itemsUpdated], [false, 0, 1])
        assert.strictEqual(itemOf(yield* allItems(workspace.id), "S-2").unitsSold30d, 0)
        yield* TestClock.adjust(30 * day)
        const later = yield* syncNow(workspace.id)
        assert.deepStrictEqual([later.full, later.sales?.lines, later.sales?.itemsUpdated], [true, 7, 1])
        const item = itemOf(yield* allItems(workspace.id), "S-1")
        assert.strictEqual(item.unitsSold30d, 0)
        // The period ending at day 1020 is complete now: L4's 4 units at 12.00.
        assert.deepStrictEqual(item.priceHistory.at(-1), { price: 1200, units: 4, at: at(1020) })
      })
    )

    it.effect(
      "a sync that fails while reading orders keeps the catalog's variants and finishes the same orders read",
      () =>
        Effect.gen(function* () {
          const { workspace } = yield* shopWithOrders()
          yield* ScriptedStoreCatalog.use((store) =>
            store.failNext(workspace.id, "orders", { restart: false, afterVariants: 3 })
          )
          const failure = yield* Effect.flip(syncNow(workspace.id))
          assert.strictEqual(failure._tag, "StoreReadFailed")
          const items = yield* allItems(workspace.id)
          // The variants were applied in their own transaction; no sale of the failed read was.
          assert.deepStrictEqual([items.size, itemOf(items, "S-1").unitsSold30d], [2, 0])
          const state = yield* StoreSyncs.use((syncs) => syncs.state(workspace.id))
          assert.deepStrictEqual([state.orders.pending?.ref, state.orders.syncedUpTo], ["orders-1", null])
          yield* TestClock.adjust(hour)
          const report = yield* syncNow(workspace.id)
          assert.strictEqual(report.sales?.lines, 6)
          assert.strictEqual(yield* ScriptedStoreCatalog.use((store) => store.ordersBegun(workspace.id)), 1)
          assert.strictEqual(itemOf(yield* allItems(workspace.id), "S-1").unitsSold30d, 5)
        })
    )

    it.effect("a workspace without a connected store has nothing to sync", () =>
      Effect.gen(function* () {
        const workspace = yield* seedWorkspace()
        const failure = yield* Effect.flip(syncNow(workspace.id))
        assert.strictEqual(failure._tag, "NoCommerceIntegration")
      })
    )
  })
