import { NodeHttpClient } from "@effect/platform-node"
import { assert, layer } from "@effect/vitest"
import { CatalogRepository } from "@margin/core/catalog/CatalogRepository"
import { StoreConnectionRepository } from "@margin/core/stores/StoreConnectionRepository"
import { StoreConnections } from "@margin/core/stores/StoreConnections"
import { aCatalogItemInput } from "@margin/core/testing/Fixtures"
import { seedWorkspace } from "@margin/core/testing/Seed"
import { PgSandboxStore } from "@margin/postgres"
import * as PgTestAdapters from "@margin/postgres/testing/PgTestAdapters"
import { Effect, Layer, Option, Redacted } from "effect"
import { ShopifyConfig } from "./ShopifyConfig.ts"
import * as StoreConnectionChecks from "./StoreConnectionChecks.ts"
import { FakeShopify, fakeShop } from "./testing/FakeShopify.ts"

// StoreConnections over the live checks: Shopify against the fake, the sandbox on the test database.
const services = StoreConnections.layer.pipe(
  Layer.provideMerge(
    StoreConnectionChecks.layer.pipe(
      Layer.provide(
        Layer.unwrap(Effect.map(FakeShopify, (fake) => ShopifyConfig.layerWith({ baseUrl: Option.some(fake.url) })))
      )
    )
  ),
  Layer.provideMerge(FakeShopify.layer()),
  Layer.provideMerge(NodeHttpClient.layerUndici),
  Layer.provideMerge(PgTestAdapters.layer)
)

const owner = { _tag: "SystemActor", name: "test" } as const

layer(services, { timeout: 120_000, excludeTestServices: true })("connecting a store, checked", (it) => {
  it.effect("Shopify: a refused token stores nothing; a good one is stored under the shop's domain", () =>
    Effect.gen(function* () {
      const fake = yield* FakeShopify
      const workspace = yield* seedWorkspace()
      const connections = yield* StoreConnections
      const refused = yield* Effect.flip(
        connections.connect(
          workspace.id,
          { platform: "shopify", shop: fakeShop, accessToken: Redacted.make("shpat_wrong") },
          owner
        )
      )
      assert.deepStrictEqual(
        [refused._tag, refused._tag === "StoreConnectionRefused" && refused.unavailable],
        ["StoreConnectionRefused", false]
      )
      assert.isTrue(Option.isNone(yield* StoreConnectionRepository.use((stores) => stores.get(workspace.id))))
      const missing = yield* Effect.flip(
        connections.connect(workspace.id, { platform: "shopify", shop: fakeShop, accessToken: null }, owner)
      )
      assert.strictEqual(missing._tag, "InvalidInput")
      const connected = yield* connections.connect(
        workspace.id,
        { platform: "shopify", shop: fakeShop.toUpperCase(), accessToken: Redacted.make(fake.options.accessToken) },
        owner
      )
      assert.deepStrictEqual(
        [connected.connection.shop, connected.connection.status, connected.shopName, connected.variants],
        [fakeShop, "connected", "Fake Shop", null]
      )
      assert.isTrue(yield* connections.disconnect(workspace.id, owner))
      assert.isFalse(yield* connections.disconnect(workspace.id, owner))
    })
  )

  it.effect("the sandbox: connected without a check, the catalog's prices copied into it", () =>
    Effect.gen(function* () {
      const workspace = yield* seedWorkspace()
      yield* CatalogRepository.use((catalog) =>
        catalog.upsertMany(
          workspace.id,
          [
            aCatalogItemInput({ sku: "A", price: 1000, storeVariantRef: "v-A" }),
            aCatalogItemInput({ sku: "B", price: 2000 })
          ],
          0
        )
      )
      const connected = yield* StoreConnections.use((connections) =>
        connections.connect(workspace.id, { platform: "sandbox", shop: null, accessToken: null }, owner)
      )
      assert.deepStrictEqual([connected.connection.platform, connected.variants], ["sandbox", 2])
      assert.deepStrictEqual(
        [
          yield* PgSandboxStore.sandboxPrice(workspace.id, "v-A"),
          yield* PgSandboxStore.sandboxPrice(workspace.id, "B")
        ],
        [1000, 2000]
      )
    })
  )
})
