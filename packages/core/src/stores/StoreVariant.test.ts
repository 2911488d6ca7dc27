import { assert, describe, it } from "@effect/vitest"
import { usd } from "../testing/Fixtures.ts"
import { type StoreVariant, storeTags, storeVariantPatch } from "./StoreVariant.ts"

const base: StoreVariant = { sku: "A-1", variantRef: "gid://shopify/ProductVariant/1", currency: usd, price: "10.00" }

describe("StoreVariant", () => {
  it("a patch mentions only what the store says", () => {
    assert.deepStrictEqual(storeVariantPatch(base, 5), {
      sku: "A-1",
      currency: usd,
      price: "10.00",
      storeVariantRef: "gid://shopify/ProductVariant/1",
      observedAt: 5
    })
  })

  it("a variant named by its sku leaves the item's ref alone", () => {
    assert.isFalse("storeVariantRef" in storeVariantPatch({ ...base, variantRef: "A-1" }, 5))
  })

  it("null from the store clears, a value sets", () => {
    const patch = storeVariantPatch(
      { ...base, title: "Mug", productRef: "p", compareAtPrice: null, cost: "4.00", inventory: null },
      5
    )
    assert.deepStrictEqual(
      [patch.title, patch.storeProductRef, patch.compareAtPrice, patch.cost, patch.inventory],
      ["Mug", "p", null, "4.00", null]
    )
  })

  const tagCases: ReadonlyArray<readonly [string, Partial<StoreVariant>, ReadonlyArray<string> | undefined]> = [
    ["nothing said: tags kept", {}, undefined],
    ["no tags at all: cleared", { tags: [] }, []],
    [
      "product type and status join the tags",
      { tags: ["a"], productType: "Mugs", status: "DRAFT" },
      ["a", "Mugs", "status:draft"]
    ],
    ["an empty product type is no tag", { tags: ["a"], productType: "" }, ["a"]],
    ["repeats kept once, padding trimmed", { tags: [" a", "a", "Mugs"], productType: "Mugs" }, ["a", "Mugs"]],
    ["what cannot be a tag is left out", { tags: ["x;y", "z".repeat(65), "ok"] }, ["ok"]]
  ]
  for (const [name, given, expected] of tagCases) {
    it(name, () => {
      assert.deepStrictEqual(storeVariantPatch({ ...base, ...given }, 5).tags, expected)
      if (expected !== undefined) assert.deepStrictEqual(storeTags({ ...base, ...given }), expected)
    })
  }
})
