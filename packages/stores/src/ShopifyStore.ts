import { formatMajorUnits, parseMajorUnits } from "@margin/core/kernel/Money"
import type { StoreConnection } from "@margin/core/stores/StoreConnection"
import { checkPrice } from "@margin/core/writeback/PriceCheck"
import { StoreUnavailable, type StoreWriteBack, type StoreWriteResult } from "@margin/core/writeback/StoreWriteBack"
import type { WriteBack } from "@margin/core/writeback/WriteBack"
import { Context, Duration, Effect, Layer, Result } from "effect"
import { makeShopifyAdminApi, ShopifyRefused } from "./ShopifyAdminApi.ts"
import { ShopifyConfig } from "./ShopifyConfig.ts"
import { makeShopifyEndpoints, refuseOnFailure } from "./ShopifyEndpoints.ts"
import { isRetryableUserError, readVariantPrice, updateVariantPrice, variantGid } from "./ShopifyOperations.ts"

export { shopDomain } from "./ShopifyEndpoints.ts"

/**
 * The store write-back to Shopify over the Admin GraphQL API: read the variant's price, compare it with
 * the write-back's old and new price, and only over the old price call productVariantsBulkUpdate.
 * Shopify has no compare-and-swap on a price: a change made by someone else between our read and our
 * write is overwritten (see docs/stores.md). Needs an HttpClient, the shop's StoreCredentials and ShopifyConfig.
 */
export class ShopifyStore extends Context.Service<ShopifyStore, StoreWriteBack["Service"]>()(
  "margin/stores/ShopifyStore"
) {
  static readonly layer = Layer.effect(
    ShopifyStore,
    Effect.gen(function* () {
      const config = yield* ShopifyConfig
      const api = yield* makeShopifyAdminApi

      const endpointOf = yield* makeShopifyEndpoints

      const deliver = Effect.fn("ShopifyStore.deliver")(
        function* (connection: StoreConnection, writeBack: WriteBack) {
          const { payload } = writeBack
          yield* Effect.annotateCurrentSpan({ writeBack: writeBack.id, variant: payload.storeVariantRef })
          const variantId = yield* refuseOnFailure(
            payload.storeVariantRef === null
              ? Result.fail(`item ${payload.sku} has no Shopify variant`)
              : variantGid(payload.storeVariantRef)
          )
          const endpoint = yield* endpointOf(connection)

          const read = yield* api.execute(endpoint, readVariantPrice(variantId))
          const variant = read.productVariant
          if (variant === null) {
            return yield* new ShopifyRefused({ message: `variant ${variantId} does not exist in ${endpoint.shop}` })
          }
          if (read.shop.currencyCode !== payload.currency) {
            return yield* new ShopifyRefused({
              message: `${endpoint.shop} prices in ${read.shop.currencyCode}, the write-back is in ${payload.currency}`
            })
          }
          const current = yield* refuseOnFailure(parseMajorUnits(variant.price, payload.currency))
          const check = checkPrice(current, payload)
          if (check._tag !== "Write") return check

          const updated = yield* api.execute(
            endpoint,
            updateVariantPrice(variant.product.id, variantId, formatMajorUnits(payload.newPrice, payload.currency))
          )
          const userErrors = updated.productVariantsBulkUpdate?.userErrors ?? []
          if (userErrors.length > 0) {
            const message = `Shopify refused the price: ${userErrors.map((error) => `${error.code ?? "ERROR"} ${error.message}`).join("; ")}`
            return yield* userErrors.every(isRetryableUserError)
              ? new StoreUnavailable({ message })
              : new ShopifyRefused({ message })
          }
          return { _tag: "Applied" } satisfies StoreWriteResult
        },
        Effect.catchTag("ShopifyRefused", (refused) =>
          Effect.succeed<StoreWriteResult>({ _tag: "Rejected", message: refused.message })
        ),
        // A write cut short here may have landed: the next delivery reads first and finds it applied.
        Effect.timeout(config.deliveryTimeout),
        Effect.catchTag("TimeoutError", () =>
          Effect.fail(
            new StoreUnavailable({
              message: `Shopify: delivery did not finish within ${Duration.format(config.deliveryTimeout)}`
            })
          )
        )
      )

      return ShopifyStore.of({ deliver })
    })
  )
}
