import type { CurrencyCode } from "@margin/core/kernel/Money"
import type { StoreOrderLine } from "@margin/core/stores/StoreOrderLine"
import { Schema } from "effect"
import type { ShopifyOperation } from "./ShopifyAdminApi.ts"
import { type BulkRun, runBulkQuery } from "./ShopifyCatalogOperations.ts"

/**
 * The Admin GraphQL operations a store sync reads orders with (API 2025-07, Shopify's documented schema;
 * no live shop was recorded). Per line item: the variant (its id and current sku), the quantity and the
 * unit price after all discounts (the line's own and its share of the order's) in shop money; per order:
 * when it was processed and the refunds' line items. A full read is a bulk operation over `orders`
 * (the line items come as their own JSONL lines after their order, with `__parentId`); an incremental
 * read pages through `orders` with the search filter `updated_at:>` (a refund updates its order).
 */

const lineItemFields = `id quantity
variant { id sku }
discountedUnitPriceAfterAllDiscountsSet { shopMoney { amount currencyCode } }
originalUnitPriceSet { shopMoney { amount currencyCode } }`

const refundFields = "refundLineItems { edges { node { quantity lineItem { id } } } }"

const ShopMoney = Schema.Struct({ shopMoney: Schema.Struct({ amount: Schema.String, currencyCode: Schema.String }) })

export const LineItemNode = Schema.Struct({
  id: Schema.String,
  quantity: Schema.Finite,
  /** Null when the variant was deleted since the order: nothing to attribute the line to. */
  variant: Schema.NullOr(Schema.Struct({ id: Schema.String, sku: Schema.NullOr(Schema.String) })),
  discountedUnitPriceAfterAllDiscountsSet: ShopMoney,
  originalUnitPriceSet: ShopMoney
})
export type LineItemNode = typeof LineItemNode.Type

const Refund = Schema.Struct({
  refundLineItems: Schema.Struct({
    edges: Schema.Array(
      Schema.Struct({
        node: Schema.Struct({ quantity: Schema.Finite, lineItem: Schema.Struct({ id: Schema.String }) })
      })
    )
  })
})

/** An order's own fields, without its line items. */
export const OrderNode = Schema.Struct({
  id: Schema.String,
  processedAt: Schema.String,
  updatedAt: Schema.String,
  refunds: Schema.Array(Refund)
})
export type OrderNode = typeof OrderNode.Type

/** A line of the bulk result: an order, or one of its line items (`__parentId` names the order). */
export const BulkOrderLine = Schema.Union([
  Schema.Struct({ ...LineItemNode.fields, __parentId: Schema.String }),
  OrderNode
])
export type BulkOrderLine = typeof BulkOrderLine.Type

/** Units of each line item refunded so far, over all the order's refunds. */
export const refundedUnits = (order: OrderNode): ReadonlyMap<string, number> => {
  const refunded = new Map<string, number>()
  for (const refund of order.refunds) {
    for (const { node } of refund.refundLineItems.edges) {
      refunded.set(node.lineItem.id, (refunded.get(node.lineItem.id) ?? 0) + node.quantity)
    }
  }
  return refunded
}

/**
 * A line item as the sync reads it: sold when its order was processed, at the unit price charged after
 * all discounts (Shopify's own allocation of the order's discounts to its lines), refunds deducted.
 */
export const storeOrderLineOf = (
  item: LineItemNode,
  order: { readonly processedAt: number; readonly refunded: ReadonlyMap<string, number> },
  currency: CurrencyCode
): StoreOrderLine => ({
  lineRef: item.id,
  sku: item.variant?.sku ?? "",
  soldAt: order.processedAt,
  quantity: item.quantity,
  refunded: order.refunded.get(item.id) ?? 0,
  currency,
  unitPrice: item.discountedUnitPriceAfterAllDiscountsSet.shopMoney.amount
})

/** Starts the bulk read of the orders processed at or after `processedFrom` (an ISO 8601 instant). */
export const runOrdersBulkQuery = (processedFrom: string): ShopifyOperation<BulkRun> =>
  runBulkQuery(
    "OrdersBulkQuery",
    `{ orders(query: "processed_at:>='${processedFrom}'") { edges { node { id processedAt updatedAt
refunds { ${refundFields} }
lineItems { edges { node { ${lineItemFields} } } } } } } }`
  )

const OrdersPage = Schema.Struct({
  shop: Schema.Struct({ currencyCode: Schema.String }),
  orders: Schema.Struct({
    nodes: Schema.Array(
      Schema.Struct({
        ...OrderNode.fields,
        lineItems: Schema.Struct({
          nodes: Schema.Array(LineItemNode),
          pageInfo: Schema.Struct({ hasNextPage: Schema.Boolean })
        })
      })
    ),
    pageInfo: Schema.Struct({ hasNextPage: Schema.Boolean, endCursor: Schema.NullOr(Schema.String) })
  })
})
export type OrdersPage = typeof OrdersPage.Type

/**
 * Orders per page of an incremental read and line items read per order, so that a page's requested cost
 * (Shopify prices a connection at `first` times its node) stays under the 1,000 points one query may
 * ask for: 10 orders of (1 + 10 line items of 6 + 2 + 2 refunds of 5 refund line items of 2 + 2) + 2
 * = 892. Shopify then charges what the page really held, far less for orders of a few lines. An order
 * with more than 10 lines, or a refund of more than 5 lines, is read whole by the next full read (a bulk
 * operation has no such limit).
 */
export const ordersPageSize = 10
export const lineItemsPerOrder = 10

/** Orders a page at a time, those updated after `updatedAfter` (an ISO 8601 instant), oldest change first. */
export const ordersUpdatedAfter = (updatedAfter: string, after: string | null): ShopifyOperation<OrdersPage> => ({
  name: "OrdersUpdatedAfter",
  document: `query OrdersUpdatedAfter($query: String!, $first: Int!, $lines: Int!, $after: String) {
  shop { currencyCode }
  orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
    nodes {
      id processedAt updatedAt
      refunds(first: 2) { ${refundFields.replace("refundLineItems", "refundLineItems(first: 5)")} }
      lineItems(first: $lines) { nodes { ${lineItemFields} } pageInfo { hasNextPage } }
    }
    pageInfo { hasNextPage endCursor }
  }
}`,
  variables: { query: `updated_at:>'${updatedAfter}'`, first: ordersPageSize, lines: lineItemsPerOrder, after },
  data: OrdersPage
})
