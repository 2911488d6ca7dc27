import { readFileSync } from "node:fs"
import { assert, describe, it } from "@effect/vitest"
import { CurrencyCode } from "@margin/core/kernel/Money"
import { Schema } from "effect"
import { storeVariantOf, VariantNode, variantsUpdatedAfter } from "./ShopifyCatalogOperations.ts"

/**
 * The shapes Shopify answers (Admin GraphQL 2024-10 onwards), as fixtures: written from Shopify's documented
 * schema and its documented examples, not recorded from a live shop (none was at hand). They pin what the
 * adapter decodes: a bulk result's JSONL lines and an incremental page, with the shop's ids and money as text.
 */
const fixture = (name: string) => readFileSync(new URL(`./testing/fixtures/${name}`, import.meta.url), "utf8")
const usd = CurrencyCode.make("USD")

describe("Shopify's catalog shapes", () => {
  it("a bulk result's lines decode into the variants the sync applies", () => {
    const lines = fixture("shopify-variants-bulk.jsonl").trim().split("\n")
    const variants = lines.map((line) =>
      storeVariantOf(Schema.decodeUnknownSync(Schema.fromJsonString(VariantNode))(line), usd)
    )
    assert.deepStrictEqual(variants[0], {
      sku: "MUG-BLU-12",
      variantRef: "gid://shopify/ProductVariant/44593201610917",
      productRef: "gid://shopify/Product/8120593465509",
      title: "Enamel Mug / Blue / 12 oz",
      currency: usd,
      price: "14.00",
      compareAtPrice: "18.00",
      cost: "5.2",
      inventory: 37,
      tags: ["camping", "kitchen"],
      productType: "Mugs",
      status: "ACTIVE"
    })
    // An untracked variant has no stock figure; "Default Title" names the product alone; an empty sku stays empty.
    assert.deepStrictEqual(
      [variants[1]?.inventory, variants[1]?.title, variants[1]?.cost, variants[1]?.sku],
      [null, "Gift Card Sleeve", null, ""]
    )
  })

  it("an incremental page decodes with its cursor", () => {
    const page = Schema.decodeUnknownSync(variantsUpdatedAfter("2026-11-29T00:00:00.000Z", null, 250).data)(
      JSON.parse(fixture("shopify-variants-page.json")).data
    )
    assert.deepStrictEqual(
      [page.productVariants.nodes.length, page.productVariants.pageInfo.hasNextPage, page.shop.currencyCode],
      [1, true, "USD"]
    )
  })
})
