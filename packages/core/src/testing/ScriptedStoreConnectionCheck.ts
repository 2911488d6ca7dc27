import { Effect, Layer, Redacted } from "effect"
import { StoreConnectionCheck, StoreConnectionRefused } from "../stores/StoreConnectionCheck.ts"

/** The one token the scripted Shopify accepts. */
export const acceptedShopifyToken = "shpat_accepted"

/**
 * StoreConnectionCheck for the test servers, which reach no platform: the sandbox is accepted as is;
 * a Shopify shop must be a `<name>.myshopify.com` domain and the token `acceptedShopifyToken`, as
 * the real check would refuse otherwise (the real one is ShopifyShopCheck of @margin/stores, tested
 * against the fake Shopify).
 */
export const layer: Layer.Layer<StoreConnectionCheck> = Layer.succeed(
  StoreConnectionCheck,
  StoreConnectionCheck.of({
    check: ({ platform, shop, accessToken }) => {
      if (platform === "sandbox") return Effect.succeed({ shop: null, shopName: null })
      const domain = (shop ?? "").trim().toLowerCase()
      if (!/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(domain)) {
        return Effect.fail(
          new StoreConnectionRefused({
            message: "the shop must be its <name>.myshopify.com domain",
            unavailable: false
          })
        )
      }
      if (accessToken === null || Redacted.value(accessToken) !== acceptedShopifyToken) {
        return Effect.fail(
          new StoreConnectionRefused({ message: "Shopify refused the access token (401)", unavailable: false })
        )
      }
      return Effect.succeed({ shop: domain, shopName: domain.split(".")[0] ?? domain })
    },
    prepare: () => Effect.succeed(null)
  })
)
