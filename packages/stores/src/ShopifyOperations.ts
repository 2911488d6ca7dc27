import { Result, Schema } from "effect"
import type { ShopifyOperation } from "./ShopifyAdminApi.ts"

/**
 * The two Admin GraphQL operations a price write-back needs: read the variant (with the shop's
 * currency, to be sure we compare like with like), then set its price with productVariantsBulkUpdate.
 */

const variantPrefix = "gid://shopify/ProductVariant/"

/** A catalog item's store variant ref as a Shopify global id: `gid://shopify/ProductVariant/1` or just `1`. */
export const variantGid = (ref: string): Result.Result<string, string> => {
  if (/^gid:\/\/shopify\/ProductVariant\/\d+$/.test(ref)) return Result.succeed(ref)
  if (/^\d+$/.test(ref)) return Result.succeed(variantPrefix + ref)
  return Result.fail(`"${ref}" is not a Shopify product variant id`)
}

const VariantPrice = Schema.Struct({
  shop: Schema.Struct({ currencyCode: Schema.String }),
  productVariant: Schema.NullOr(
    Schema.Struct({
      id: Schema.String,
      price: Schema.String,
      product: Schema.Struct({ id: Schema.String })
    })
  )
})
export type VariantPrice = typeof VariantPrice.Type

export const readVariantPrice = (variantId: string): ShopifyOperation<VariantPrice> => ({
  name: "ProductVariantPrice",
  document: `query ProductVariantPrice($id: ID!) {
  shop { currencyCode }
  productVariant(id: $id) { id price product { id } }
}`,
  variables: { id: variantId },
  data: VariantPrice
})

const UserError = Schema.Struct({
  field: Schema.NullOr(Schema.Array(Schema.String)),
  message: Schema.String,
  code: Schema.NullOr(Schema.String)
})
export type ShopifyUserError = typeof UserError.Type

const BulkUpdate = Schema.Struct({
  productVariantsBulkUpdate: Schema.NullOr(
    Schema.Struct({
      productVariants: Schema.NullOr(Schema.Array(Schema.Struct({ id: Schema.String, price: Schema.String }))),
      userErrors: Schema.Array(UserError)
    })
  )
})
export type BulkUpdate = typeof BulkUpdate.Type

export const updateVariantPrice = (
  productId: string,
  variantId: string,
  price: string
): ShopifyOperation<BulkUpdate> => ({
  name: "ProductVariantPriceUpdate",
  document: `mutation ProductVariantPriceUpdate($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
  productVariantsBulkUpdate(productId: $productId, variants: $variants) {
    productVariants { id price }
    userErrors { field message code }
  }
}`,
  variables: { productId, variants: [{ id: variantId, price }] },
  data: BulkUpdate
})

// userError codes that describe a passing state of the shop rather than a bad request.
const retryableUserErrorCodes: ReadonlySet<string> = new Set(["CANNOT_CURRENTLY_BE_CHANGED"])

export const isRetryableUserError = (error: ShopifyUserError): boolean =>
  error.code !== null && retryableUserErrorCodes.has(error.code)

const ShopIdentity = Schema.Struct({ shop: Schema.Struct({ name: Schema.String, myshopifyDomain: Schema.String }) })
export type ShopIdentity = typeof ShopIdentity.Type

/** The cheapest read that proves a token and names its shop: what connecting a store checks. */
export const readShop: ShopifyOperation<ShopIdentity> = {
  name: "ShopIdentity",
  document: `query ShopIdentity {
  shop { name myshopifyDomain }
}`,
  variables: {},
  data: ShopIdentity
}
