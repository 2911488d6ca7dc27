import { NodeHttpClient } from "@effect/platform-node"
import { AuditTrail } from "@margin/core/audit/AuditTrail"
import * as MemoryAdapters from "@margin/core/memory/MemoryAdapters"
import { StoreCredentials } from "@margin/core/stores/StoreCredentials"
import { defaultStoreSyncOptions, type StoreSyncOptions, StoreSyncs } from "@margin/core/stores/StoreSyncs"
import { Duration, Effect, Layer, Option } from "effect"
import { ShopifyCatalogSource } from "../ShopifyCatalogSource.ts"
import { ShopifyConfig, type ShopifyConfigShape } from "../ShopifyConfig.ts"
import * as StoreCatalogRouter from "../StoreCatalogRouter.ts"
import { FakeShopify, type FakeShopifyOptions, fakeShop } from "./FakeShopify.ts"

/** The Shopify catalog reader pointed at a FakeShopify, as the StoreCatalogSource port. */
export const shopifySourceOverFake = (config: Partial<ShopifyConfigShape> = {}) =>
  Layer.unwrap(
    Effect.map(FakeShopify, (fake) =>
      StoreCatalogRouter.forPlatform(ShopifyCatalogSource).pipe(
        Layer.provide(ShopifyCatalogSource.layer),
        Layer.provide([
          ShopifyConfig.layerWith({ baseUrl: Option.some(fake.url), bulkPollInterval: Duration.millis(10), ...config }),
          StoreCredentials.layerStatic({ [fakeShop]: fake.options.accessToken }),
          NodeHttpClient.layerUndici
        ])
      )
    )
  )

/**
 * StoreSyncs on the memory adapters, reading a fresh FakeShopify over real HTTP: a shop to sync in
 * tests (the use case's own suite runs on PostgreSQL too, with a scripted store).
 */
export const shopifySyncOverFake = (
  options: {
    readonly fake?: Partial<FakeShopifyOptions>
    readonly config?: Partial<ShopifyConfigShape>
    readonly sync?: Partial<StoreSyncOptions>
  } = {}
) =>
  StoreSyncs.layerWith({ ...defaultStoreSyncOptions, ...options.sync }).pipe(
    Layer.provide(AuditTrail.layer),
    Layer.provideMerge(shopifySourceOverFake(options.config)),
    Layer.provideMerge(FakeShopify.layer(options.fake)),
    Layer.provideMerge(MemoryAdapters.layer)
  )
