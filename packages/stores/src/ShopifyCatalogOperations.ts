import type { CurrencyCode } from "@margin/core/kernel/Money"
import type { StoreVariant } from "@margin/core/stores/StoreVariant"
import { Schema } from "effect"
import type { ShopifyOperation } from "./ShopifyAdminApi.ts"

/**
 * The Admin GraphQL operations a store sync reads the catalog with (API 2025-07; the shapes are
 * Shopify's documented schema of 2024-10 onwards, written from it: no live shop was recorded). A full
 * read is a bulk operation over `productVariants`, one JSONL line per variant with its product's
 * fields inline (no `__parentId` lines to join); an incremental read pages through the same fields
 * with the search filter `updated_at:>`.
 */

/** The fields of a variant the sync reads, the same in the bulk query, its JSONL lines and the pages. */
const variantFields = `id sku title price compareAtPrice inventoryQuantity updatedAt
inventoryItem { tracked unitCost { amount currencyCode } }
product { id title productType tags status }`

export const VariantNode = Schema.Struct({
  id: Schema.String,
  sku: Schema.NullOr(Schema.String),
  title: Schema.String,
  price: Schema.String,
  compareAtPrice: Schema.NullOr(Schema.String),
  inventoryQuantity: Schema.NullOr(Schema.Finite),
  inventoryItem: Schema.NullOr(
    Schema.Struct({
      tracked: Schema.Boolean,
      unitCost: Schema.NullOr(Schema.Struct({ amount: Schema.String, currencyCode: Schema.String }))
    })
  ),
  product: Schema.Struct({
    id: Schema.String,
    title: Schema.String,
    productType: Schema.String,
    tags: Schema.Array(Schema.String),
    status: Schema.String
  })
})
export type VariantNode = typeof VariantNode.Type

/** Shopify names a product's only variant "Default Title": the item is then named after the product. */
const defaultVariantTitle = "Default Title"

/** A variant as the sync reads it, priced in the shop's `currency`. */
export const storeVariantOf = (node: VariantNode, currency: CurrencyCode): StoreVariant => ({
  sku: node.sku ?? "",
  variantRef: node.id,
  productRef: node.product.id,
  title: node.title === defaultVariantTitle ? node.product.title : `${node.product.title} / ${node.title}`,
  currency,
  price: node.price,
  compareAtPrice: node.compareAtPrice,
  cost: node.inventoryItem?.unitCost?.amount ?? null,
  inventory: node.inventoryItem?.tracked === false ? null : node.inventoryQuantity,
  tags: node.product.tags,
  productType: node.product.productType,
  status: node.product.status
})

const ShopCurrency = Schema.Struct({ shop: Schema.Struct({ currencyCode: Schema.String }) })

export const readShopCurrency: ShopifyOperation<typeof ShopCurrency.Type> = {
  name: "ShopCurrency",
  document: "query ShopCurrency { shop { currencyCode } }",
  variables: {},
  data: ShopCurrency
}

const UserError = Schema.Struct({ field: Schema.NullOr(Schema.Array(Schema.String)), message: Schema.String })

export const BulkRun = Schema.Struct({
  bulkOperationRunQuery: Schema.NullOr(
    Schema.Struct({
      bulkOperation: Schema.NullOr(Schema.Struct({ id: Schema.String, status: Schema.String })),
      userErrors: Schema.Array(UserError)
    })
  )
})

export type BulkRun = typeof BulkRun.Type

/** `bulkOperationRunQuery` of `query` (the bulk query's own GraphQL text), named `name` for pacing. */
export const runBulkQuery = (name: string, query: string): ShopifyOperation<BulkRun> => ({
  name,
  document: `mutation ${name}($query: String!) {
  bulkOperationRunQuery(query: $query) {
    bulkOperation { id status }
    userErrors { field message }
  }
}`,
  variables: { query },
  data: BulkRun
})

/** Starts the bulk read of every variant. */
export const runVariantsBulkQuery: ShopifyOperation<BulkRun> = runBulkQuery(
  "VariantsBulkQuery",
  `{ productVariants { edges { node { ${variantFields} } } } }`
)

export const BulkOperationStatus = Schema.Literals([
  "CREATED",
  "RUNNING",
  "COMPLETED",
  "CANCELING",
  "CANCELED",
  "FAILED",
  "EXPIRED"
])

const BulkPoll = Schema.Struct({
  node: Schema.NullOr(
    Schema.Struct({
      id: Schema.String,
      status: BulkOperationStatus,
      errorCode: Schema.NullOr(Schema.String),
      objectCount: Schema.String,
      url: Schema.NullOr(Schema.String)
    })
  )
})
export type BulkPoll = typeof BulkPoll.Type

/** Where a bulk operation stands (by id, so a sync resumed after a crash finds its own operation). */
export const pollBulkOperation = (id: string): ShopifyOperation<BulkPoll> => ({
  name: "BulkOperationStatus",
  document: `query BulkOperationStatus($id: ID!) {
  node(id: $id) { ... on BulkOperation { id status errorCode objectCount url } }
}`,
  variables: { id },
  data: BulkPoll
})

const VariantsPage = Schema.Struct({
  shop: Schema.Struct({ currencyCode: Schema.String }),
  productVariants: Schema.Struct({
    nodes: Schema.Array(VariantNode),
    pageInfo: Schema.Struct({ hasNextPage: Schema.Boolean, endCursor: Schema.NullOr(Schema.String) })
  })
})
export type VariantsPage = typeof VariantsPage.Type

/** Variants a page at a time, those updated after `updatedAfter` (an ISO 8601 instant). */
export const variantsUpdatedAfter = (
  updatedAfter: string,
  after: string | null,
  first: number
): ShopifyOperation<VariantsPage> => ({
  name: "VariantsUpdatedAfter",
  document: `query VariantsUpdatedAfter($query: String!, $first: Int!, $after: String) {
  shop { currencyCode }
  productVariants(first: $first, after: $after, query: $query, sortKey: ID) {
    nodes { ${variantFields} }
    pageInfo { hasNextPage endCursor }
  }
}`,
  variables: { query: `updated_at:>'${updatedAfter}'`, first, after },
  data: VariantsPage
})
