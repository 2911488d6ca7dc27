import { readFileSync } from "node:fs"
import { assert, describe, it } from "@effect/vitest"
import { CurrencyCode } from "@margin/core/kernel/Money"
import { Schema } from "effect"
import {
  BulkOrderLine,
  type OrderNode,
  ordersUpdatedAfter,
  refundedUnits,
  storeOrderLineOf
} from "./ShopifyOrderOperations.ts"

/**
 * The shapes Shopify answers for orders (Admin GraphQL 2024-10 onwards), as fixtures written from its
 * documented schema (Order, LineItem, Refund, RefundLineItem, MoneyBag) and its bulk operations guide
 * (a nested connection's nodes as their own JSONL lines with `__parentId`, after their parent); not
 * recorded from a live shop.
 */
const fixture = (name: string) => readFileSync(new URL(`./testing/fixtures/${name}`, import.meta.url), "utf8")
const usd = CurrencyCode.make("USD")

describe("Shopify's order shapes", () => {
  it("a bulk result's lines decode into order lines at the price charged, refunds deducted", () => {
    const lines = fixture("shopify-orders-bulk.jsonl")
      .trim()
      .split("\n")
      .map((line) => Schema.decodeUnknownSync(Schema.fromJsonString(BulkOrderLine))(line))
    let order: OrderNode | undefined
    const read = lines.flatMap((line) => {
      if (!("__parentId" in line)) {
        order = line
        return []
      }
      assert.strictEqual(line.__parentId, order?.id)
      if (order === undefined) return []
      return [
        storeOrderLineOf(line, { processedAt: Date.parse(order.processedAt), refunded: refundedUnits(order) }, usd)
      ]
    })
    assert.deepStrictEqual(read[0], {
      lineRef: "gid://shopify/LineItem/13597361586341",
      sku: "MUG-BLU-12",
      soldAt: Date.parse("2026-10-14T09:21:47Z"),
      quantity: 3,
      refunded: 1,
      currency: usd,
      // After the line's and the order's discounts, not the list price of 14.0.
      unitPrice: "11.9"
    })
    // A deleted variant leaves its line without a sku; an order without refunds refunds nothing.
    assert.deepStrictEqual(
      [read[1]?.sku, read[2]?.sku, read[2]?.refunded, read[2]?.unitPrice],
      ["", "MUG-RED-12", 0, "14.0"]
    )
  })

  it("an incremental page decodes with its cursor and its cost", () => {
    const answer = JSON.parse(fixture("shopify-orders-page.json"))
    const page = Schema.decodeUnknownSync(ordersUpdatedAfter("2026-10-20T00:00:00.000Z", null).data)(answer.data)
    const order = page.orders.nodes[0]
    assert.deepStrictEqual(
      [page.orders.nodes.length, page.orders.pageInfo.hasNextPage, order?.lineItems.pageInfo.hasNextPage],
      [1, true, false]
    )
    assert.deepStrictEqual(order === undefined ? [] : [...refundedUnits(order)], [
      ["gid://shopify/LineItem/13597361586341", 1]
    ])
    assert.isBelow(answer.extensions.cost.requestedQueryCost, 1000)
  })
})
