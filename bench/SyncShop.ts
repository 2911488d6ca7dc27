import type { FakeVariant } from "@margin/stores/testing/FakeShopify"

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
