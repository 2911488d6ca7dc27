import { NodeHttpClient } from "@effect/platform-node"
import { StoreCatalogSource } from "@margin/core/stores/StoreCatalogSource"
import type { StorePlatform } from "@margin/core/stores/StoreConnection"
import { type Context, Effect, Layer } from "effect"
import { SandboxCatalogSource } from "./SandboxCatalogSource.ts"
import { ShopifyCatalogSource } from "./ShopifyCatalogSource.ts"
import { ShopifyConfig } from "./ShopifyConfig.ts"

/**
 * The StoreCatalogSource port: each read goes to the adapter of its connection's platform. Keyed by
 * StorePlatform, so a new platform does not compile until it can be synced.
 */
export const layer: Layer.Layer<StoreCatalogSource, never, SandboxCatalogSource | ShopifyCatalogSource> = Layer.effect(
  StoreCatalogSource,
  Effect.gen(function* () {
    const adapters: Readonly<Record<StorePlatform, StoreCatalogSource["Service"]>> = {
      sandbox: yield* SandboxCatalogSource,
      shopify: yield* ShopifyCatalogSource
    }
    return StoreCatalogSource.of({
      begin: (connection, since) => adapters[connection.platform].begin(connection, since),
      ready: (connection, ref) => adapters[connection.platform].ready(connection, ref),
      variants: (connection, ref) => adapters[connection.platform].variants(connection, ref),
      beginOrders: (connection, since, from) => adapters[connection.platform].beginOrders(connection, since, from),
      orderLines: (connection, ref) => adapters[connection.platform].orderLines(connection, ref)
    })
  })
)

/** One platform's reader as the StoreCatalogSource port (a setup with one platform: tests, benchmarks). */
export const forPlatform = <I extends SandboxCatalogSource | ShopifyCatalogSource>(
  adapter: Context.Key<I, StoreCatalogSource["Service"]>
): Layer.Layer<StoreCatalogSource, never, I> =>
  Layer.effect(
    StoreCatalogSource,
    Effect.gen(function* () {
      return yield* adapter
    })
  )

/**
 * Both readers as a server, worker or CLI needs them: Shopify configured from the environment over
 * undici. Needs the database (SqlClient) for the sandbox and the StoreCredentials of connected shops.
 */
export const layerLive = layer.pipe(
  Layer.provide([SandboxCatalogSource.layer, ShopifyCatalogSource.layer]),
  Layer.provide([ShopifyConfig.layer, NodeHttpClient.layerUndici])
)
