import { Effect, Option, type Redacted, Result } from "effect"
import { makeShopifyAdminApi, ShopifyRefused } from "./ShopifyAdminApi.ts"
import { ShopifyConfig } from "./ShopifyConfig.ts"
import { readShop } from "./ShopifyOperations.ts"

/** The shop a token opens, as Shopify names it. */
export interface CheckedShop {
  readonly name: string
  readonly domain: string
}

const myshopifyDomain = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/

/** `<name>.myshopify.com`, the shop's own domain (a custom domain does not address the Admin API). */
export const requireMyshopifyDomain = (shop: string): Result.Result<string, string> => {
  const domain = shop.trim().toLowerCase()
  return myshopifyDomain.test(domain)
    ? Result.succeed(domain)
    : Result.fail(`"${shop}" is not a shop's myshopify domain: give <name>.myshopify.com (the Shopify admin shows it)`)
}

/**
 * Checks a Shopify connection before it is stored, with one read: `shop { name myshopifyDomain }`
 * on the Admin API with the token. Refused (ShopifyRefused) when the domain is not a myshopify
 * domain, when Shopify refuses the token (401, 403, a GraphQL ACCESS_DENIED), or when the token
 * opens another shop than the one named; StoreUnavailable when Shopify cannot be reached.
 */
export const checkShopifyShop = Effect.fn("checkShopifyShop")(function* (
  shop: string,
  accessToken: Redacted.Redacted<string>
) {
  const domain = requireMyshopifyDomain(shop)
  if (Result.isFailure(domain)) return yield* new ShopifyRefused({ message: domain.failure })
  const config = yield* ShopifyConfig
  const api = yield* makeShopifyAdminApi
  const base = Option.getOrElse(config.baseUrl, () => `https://${domain.success}`)
  const answer = yield* api.execute(
    { shop: domain.success, url: `${base}/admin/api/${config.apiVersion}/graphql.json`, accessToken },
    readShop
  )
  if (answer.shop.myshopifyDomain.toLowerCase() !== domain.success) {
    return yield* new ShopifyRefused({
      message: `the access token opens ${answer.shop.myshopifyDomain}, not ${domain.success}`
    })
  }
  return { name: answer.shop.name, domain: domain.success } satisfies CheckedShop
})
