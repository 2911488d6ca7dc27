import type { StoreConnection } from "@margin/core/stores/StoreConnection"
import { StoreCredentials } from "@margin/core/stores/StoreCredentials"
import { StoreUnavailable } from "@margin/core/writeback/StoreWriteBack"
import { Effect, Option, Result } from "effect"
import { type ShopifyEndpoint, ShopifyRefused } from "./ShopifyAdminApi.ts"
import { ShopifyConfig } from "./ShopifyConfig.ts"

/** `acme` or `acme.myshopify.com` as the shop's domain; anything else is refused rather than called. */
export const shopDomain = (shop: string): Result.Result<string, string> => {
  const domain = shop.includes(".") ? shop.toLowerCase() : `${shop.toLowerCase()}.myshopify.com`
  return /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(domain)
    ? Result.succeed(domain)
    : Result.fail(`"${shop}" is not a Shopify shop (expected <name>.myshopify.com)`)
}

export const refuseOnFailure = <A>(result: Result.Result<A, string>) =>
  Result.isSuccess(result)
    ? Effect.succeed(result.success)
    : Effect.fail(new ShopifyRefused({ message: result.failure }))

/**
 * Where a connection's shop answers and with which token: the shop's domain from the connection, the
 * token from StoreCredentials, the origin from ShopifyConfig (the fake in tests). Shared by the
 * write-back (ShopifyStore) and the catalog read (ShopifyCatalogSource).
 */
export const makeShopifyEndpoints = Effect.gen(function* () {
  const config = yield* ShopifyConfig
  const credentials = yield* StoreCredentials
  return Effect.fnUntraced(function* (connection: StoreConnection) {
    const domain = yield* refuseOnFailure(
      connection.shop === null ? Result.fail("the Shopify connection names no shop") : shopDomain(connection.shop)
    )
    const token = yield* credentials
      .accessToken(connection)
      .pipe(Effect.mapError((error) => new StoreUnavailable({ message: `credentials unreadable: ${error.message}` })))
    if (Option.isNone(token)) {
      return yield* new ShopifyRefused({ message: `no access token is stored for ${domain}` })
    }
    const base = Option.getOrElse(config.baseUrl, () => `https://${domain}`)
    return {
      shop: domain,
      url: `${base}/admin/api/${config.apiVersion}/graphql.json`,
      accessToken: token.value
    } satisfies ShopifyEndpoint
  })
})
