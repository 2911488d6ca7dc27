import { NodeHttpClient } from "@effect/platform-node"
import { StoreCredentials } from "@margin/core/stores/StoreCredentials"
import { Effect, Layer, Option } from "effect"
import { ShopifyConfig, type ShopifyConfigShape } from "../ShopifyConfig.ts"
import { ShopifyStore } from "../ShopifyStore.ts"
import { FakeShopify, type FakeShopifyOptions, fakeShop } from "./FakeShopify.ts"

/**
 * A fresh FakeShopify and a ShopifyStore pointed at it over real HTTP (undici), with the default
 * timeouts (a short one would cut answered calls on a loaded machine: tests of hangs set theirs).
 * `tokens` replaces the stored credentials (default: the fake's token).
 */
export const shopifyStoreOverFake = (
  options: {
    readonly config?: Partial<ShopifyConfigShape>
    readonly fake?: Partial<FakeShopifyOptions>
    readonly tokens?: Readonly<Record<string, string>>
  } = {}
) =>
  Layer.unwrap(
    Effect.map(FakeShopify, (fake) =>
      ShopifyStore.layer.pipe(
        Layer.provide([
          ShopifyConfig.layerWith({
            baseUrl: Option.some(fake.url),
            ...options.config
          }),
          StoreCredentials.layerStatic(options.tokens ?? { [fakeShop]: fake.options.accessToken }),
          NodeHttpClient.layerUndici
        ])
      )
    )
  ).pipe(Layer.provideMerge(FakeShopify.layer(options.fake)))
