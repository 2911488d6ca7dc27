import type { FakeOrder, FakeVariant } from "@margin/stores/testing/FakeShopify"

/** The Shopify global id of the bench shop's variant `n` (1-based). */
export const benchVariantId = (n: number): string => `gid://shopify/ProductVariant/${n}`

/** Variant `n` of the bench shop: four variants a product, a mix of types, statuses, costs and stock. */
export const benchVariant = (n: number, updatedAt: number, price: string): FakeVariant => ({
  productId: `gid://shopify/Product/${Math.floor(n / 4)}`,
  price,
  sku: `BENCH-${n}`,
  title: `Size ${n % 4}`,
  productTitle: `Product ${Math.floor(n / 4)}`,
  productType: ["Mugs", "Bowls", "Plates", "Jugs"][n % 4] ?? "Mugs",
  tags: ["kitchen", `collection-${n % 20}`],
  status: n % 50 === 0 ? "DRAFT" : "ACTIVE",
  compareAtPrice: n % 3 === 0 ? "29.00" : null,
  cost: `${(5 + (n % 700) / 100).toFixed(2)}`,
  inventory: n % 9 === 0 ? null : n % 120,
  updatedAt
})

/** The Shopify global id of the bench shop's order `n`. */
export const benchOrderId = (n: number): string => `gid://shopify/Order/${n}`

/** A number in [0, 1) from `n` alone (a multiplicative hash): the same shop on every run. */
const unit = (n: number): number => (Math.imul(n ^ 0x9e3779b9, 0x85ebca6b) >>> 0) / 2 ** 32

/**
 * Order `n` of the bench shop, placed at `processedAt`: one to three lines, the variants drawn with a
 * skew (a few sell a lot, most a little: variant 1 + size * u², u uniform), two units at most a line,
 * one line in ten at 15 % off (the price charged after discounts), one order in thirty with a unit
 * of its first line refunded.
 */
export const benchOrder = (n: number, size: number, processedAt: number, updatedAt = processedAt): FakeOrder => {
  const lines = 1 + Math.floor(unit(n) * 3)
  const lineItems = Array.from({ length: lines }, (_, index) => {
    const draw = unit(n * 7 + index + 1)
    const variant = 1 + Math.floor(size * draw * draw)
    const discounted = unit(n * 13 + index) < 0.1
    return {
      id: n * 4 + index,
      variantId: benchVariantId(Math.min(size, variant)),
      quantity: 1 + Math.floor(unit(n * 17 + index) * 2),
      unitPrice: discounted ? "16.99" : "19.99",
      originalUnitPrice: "19.99"
    }
  })
  const first = lineItems[0]
  return {
    processedAt,
    updatedAt,
    lineItems,
    refunds: n % 30 === 0 && first !== undefined ? [[{ lineItemId: first.id, quantity: 1 }]] : []
  }
}
