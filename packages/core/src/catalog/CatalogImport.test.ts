import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import * as fc from "fast-check"
import { WorkspaceId } from "../kernel/Ids.ts"
import { CurrencyCode } from "../kernel/Money.ts"
import {
  type CatalogLine,
  type CatalogLineParser,
  csvHeader,
  csvLineParser,
  formatOfFileName,
  jsonlLineParser,
  splitCsvRecord,
  toCsvLine
} from "./CatalogImport.ts"
import { decideImportLine } from "./CatalogImportDecision.ts"
import type { CatalogItemInput } from "./CatalogItem.ts"
import type { CatalogPatch } from "./CatalogPatch.ts"

const usd = CurrencyCode.make("USD")

const parser = (header: string = csvHeader): CatalogLineParser => {
  const result = csvLineParser(header)
  if (Result.isFailure(result)) return assert.fail(result.failure)
  return result.success
}

const patch = (line: CatalogLine): CatalogPatch => {
  if (line._tag !== "Item") return assert.fail(`expected an item, got ${JSON.stringify(line)}`)
  return line.patch
}

const error = (line: CatalogLine): string => {
  if (line._tag !== "Rejected") return assert.fail(`expected a rejection, got ${JSON.stringify(line)}`)
  return line.error
}

/** The item a line creates in an empty catalog, as an import input (what toCsvLine wrote). */
const created = (line: CatalogLine): CatalogItemInput => {
  const decision = decideImportLine(undefined, patch(line), WorkspaceId.make("ws_t"), 0)
  if (decision._tag !== "Created") return assert.fail(`expected a new item, got ${JSON.stringify(decision)}`)
  const { item } = decision
  return {
    sku: item.sku,
    title: item.title,
    tags: item.tags,
    currency: item.currency,
    price: item.price,
    cost: item.cost,
    compareAtPrice: item.compareAtPrice,
    minPrice: item.minPrice,
    maxPrice: item.maxPrice,
    inventory: item.inventory,
    unitsSold30d: item.unitsSold30d
  }
}

describe("CatalogImport CSV", () => {
  it("reads a full line: amounts as the file writes them, tags split, counts", () => {
    assert.deepStrictEqual(patch(parser()("SKU-1,Blue mug,kitchen;mugs,USD,12.99,5.5,15,10,20.00,42,7", 2)), {
      sku: "SKU-1",
      title: "Blue mug",
      tags: ["kitchen", "mugs"],
      currency: usd,
      price: "12.99",
      cost: "5.5",
      compareAtPrice: "15",
      minPrice: "10",
      maxPrice: "20.00",
      inventory: 42,
      unitsSold30d: 7
    })
  })

  it("leaves empty cells out: an empty cell mentions nothing", () => {
    assert.deepStrictEqual(patch(parser()("S2,Plate,,usd,3,,,,,,", 3)), {
      sku: "S2",
      title: "Plate",
      currency: usd,
      price: "3"
    })
  })

  it("reads the cell null as a clear, in the columns that may be unknown only", () => {
    const parse = parser(`${csvHeader},store_product_ref,store_variant_ref,competitor_price`)
    assert.deepStrictEqual(patch(parse("S,,NULL,,,null,null,null, null ,null,,null,null,null", 2)), {
      sku: "S",
      tags: [],
      cost: null,
      compareAtPrice: null,
      minPrice: null,
      maxPrice: null,
      inventory: null,
      storeProductRef: null,
      storeVariantRef: null,
      competitorPrice: null
    })
    assert.match(error(parse("S,,,,null,,,,,,,,,", 3)), /^price: "null" is not an amount/)
    assert.match(error(parse("S,,,,,,,,,,null,,,", 4)), /^units_sold_30d: "null" is not a whole number/)
    // A title is text: "null" is a title like any other.
    assert.strictEqual(patch(parse("S,null,,,,,,,,,,,,", 5)).title, "null")
  })

  it("needs only a sku column: the header names what the file mentions", () => {
    const parse = parser("sku,price")
    assert.deepStrictEqual(patch(parse("SP-1,1.50", 2)), { sku: "SP-1", price: "1.50" })
    assert.deepStrictEqual(patch(parser("price,currency,title,sku")("1.50,EUR,Spoon,SP-1", 2)), {
      sku: "SP-1",
      price: "1.50",
      currency: CurrencyCode.make("EUR"),
      title: "Spoon"
    })
  })

  it("reads observed_at as an instant with a zone", () => {
    const parse = parser("sku,price,observed_at")
    assert.strictEqual(patch(parse("S,1,2026-03-01T09:00:00Z", 2)).observedAt, Date.UTC(2026, 2, 1, 9))
    assert.strictEqual(
      patch(parse("S,1,2026-03-01T11:00:00.500+02:00", 2)).observedAt,
      Date.UTC(2026, 2, 1, 9, 0, 0, 500)
    )
    assert.match(error(parse("S,1,2026-03-01 09:00", 3)), /^observed_at: .* is not an ISO 8601 time with a zone/)
    assert.match(error(parse("S,1,2026-03-01T09:00:00", 3)), /^observed_at: /)
  })

  it("reads the optional store refs, trimmed", () => {
    const parse = parser(`${csvHeader},store_product_ref,store_variant_ref`)
    const linked = patch(parse("S,Mug,,USD,1,,,,,,, gid://shopify/Product/7 ,44563467321", 2))
    assert.deepStrictEqual([linked.storeProductRef, linked.storeVariantRef], ["gid://shopify/Product/7", "44563467321"])
    const variantOnly = patch(parse("S,Mug,,USD,1,,,,,,,,v-1", 3))
    assert.deepStrictEqual([Object.hasOwn(variantOnly, "storeProductRef"), variantOnly.storeVariantRef], [false, "v-1"])
    const none = patch(parse("S,Mug,,USD,1,,,,,,, , ", 4))
    assert.isFalse(Object.hasOwn(none, "storeProductRef") || Object.hasOwn(none, "storeVariantRef"))
    assert.match(
      error(parse(`S,Mug,,USD,1,,,,,,,,${"v".repeat(256)}`, 5)),
      /^store_variant_ref is longer than 255 characters$/
    )
  })

  it("reads the optional competitor price: set, cleared with null, or left out", () => {
    const parse = parser(`${csvHeader},competitor_price`)
    assert.strictEqual(patch(parse("S,Mug,,USD,10,,,,,,,9.50", 2)).competitorPrice, "9.50")
    assert.strictEqual(patch(parse("S,Mug,,USD,10,,,,,,,null", 3)).competitorPrice, null)
    assert.isFalse(Object.hasOwn(patch(parse("S,Mug,,USD,10,,,,,,,", 3)), "competitorPrice"))
    assert.match(error(parse("S,Mug,,USD,10,,,,,,,cheap", 4)), /^competitor_price: /)
    const json = (text: string) =>
      patch(jsonlLineParser(`{"sku":"J","title":"Jug","currency":"JPY","price":"1000"${text}}`, 6))
    assert.strictEqual(json(',"competitor_price":980').competitorPrice, "980")
    assert.strictEqual(json(',"competitor_price":null').competitorPrice, null)
    assert.isFalse(Object.hasOwn(json(""), "competitorPrice"))
  })

  it("reads quoted fields with commas and doubled quotes", () => {
    assert.strictEqual(patch(parser()('Q1,"Mug, large ""XL""",,USD,9,,,,,,', 2)).title, 'Mug, large "XL"')
    assert.deepStrictEqual(Result.getOrThrow(splitCsvRecord('"",a,"b"')), ["", "a", "b"])
    assert.deepStrictEqual(Result.getOrThrow(splitCsvRecord("a,,")), ["a", "", ""])
  })

  it("keeps a floor above the ceiling for the run to raise an alert about", () => {
    const parsed = created(parser()("S,Mug,,USD,1,,,5,4,,", 2))
    assert.deepStrictEqual([parsed.minPrice, parsed.maxPrice], [500, 400])
  })

  it("skips blank lines and strips a byte order mark from the header", () => {
    assert.strictEqual(parser()("   ", 4)._tag, "Blank")
    assert.isTrue(Result.isSuccess(csvLineParser(`\uFEFF${csvHeader}`)))
  })

  it("rejects a bad header with the reason", () => {
    const failure = (header: string): string => Result.getOrThrow(Result.flip(csvLineParser(header)))
    assert.match(failure("sku,title,currency,prize"), /unknown column "prize"/)
    assert.match(failure("title,currency,price"), /missing column sku/)
    assert.match(failure("sku,title,currency,price,sku"), /"sku" appears twice/)
    assert.match(failure('sku,"title'), /not closed/)
  })

  const badLines: ReadonlyArray<readonly [string, string, RegExp]> = [
    ["missing sku", ",Mug,,USD,1,,,,,,", /^sku is required$/],
    ["overlong sku", `${"x".repeat(129)},Mug,,USD,1,,,,,,`, /^sku is longer than 128/],
    ["bad currency", "S,Mug,,DOLLARS,1,,,,,,", /^currency: "DOLLARS" is not an ISO 4217 code/],
    ["price not a number", "S,Mug,,USD,abc,,,,,,", /^price: "abc" is not an amount/],
    ["negative price", "S,Mug,,USD,-1,,,,,,", /^price: "-1" is not an amount/],
    ["bad cost", "S,Mug,,USD,1,x,,,,,", /^cost: /],
    ["bad compare_at_price", "S,Mug,,USD,1,,1e3,,,,", /^compare_at_price: /],
    ["bad min_price", "S,Mug,,USD,1,,,?,,,", /^min_price: /],
    ["bad max_price", "S,Mug,,USD,1,,,,1.2.3,,", /^max_price: /],
    ["fractional inventory", "S,Mug,,USD,1,,,,,1.5,", /^inventory: "1.5" is not a whole number$/],
    ["negative units sold", "S,Mug,,USD,1,,,,,,-3", /^units_sold_30d: -3 is below 0$/],
    ["bad tag", `S,Mug,${"t".repeat(65)},USD,1,,,,,,`, /^tags: "t+" is not a tag/],
    ["too few fields", "S,Mug,,USD,1", /^expected 11 fields like the header, found 5$/],
    ["too many fields", "S,Mug,,USD,1,,,,,,,", /^expected 11 fields like the header, found 12$/],
    ["unclosed quote", 'S,"Mug,,USD,1,,,,,,', /not closed on its line/],
    ["stray quote", 'S,Mu"g,,USD,1,,,,,,', /must be quoted/],
    ["text after a quoted field", 'S,"Mug"x,,USD,1,,,,,,', /unexpected text after a quoted field/]
  ]
  for (const [name, text, expected] of badLines) {
    it(`rejects a line with ${name}, keeping its line number`, () => {
      const parsed = parser()(text, 17)
      assert.strictEqual(parsed.line, 17)
      assert.match(error(parsed), expected)
    })
  }

  it("round-trips any valid item through toCsvLine into a new item", () => {
    const amount = fc.option(fc.integer({ min: 0, max: 10_000_000 }), { nil: null })
    const arbitraryItem = fc.record({
      sku: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ,"_-]{0,30}[A-Za-z0-9]$/),
      title: fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ,"]{0,40}[A-Za-z0-9"]$/),
      tags: fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), { maxLength: 4 }),
      price: fc.integer({ min: 0, max: 10_000_000 }),
      cost: amount,
      compareAtPrice: amount,
      inventory: fc.option(fc.integer({ min: -1000, max: 100_000 }), { nil: null }),
      unitsSold30d: fc.integer({ min: 0, max: 100_000 })
    })
    fc.assert(
      fc.property(arbitraryItem, (generated) => {
        const input: CatalogItemInput = { ...generated, currency: usd, minPrice: null, maxPrice: null }
        assert.deepStrictEqual(created(parser()(toCsvLine(input), 2)), input)
      })
    )
  })
})

describe("CatalogImport JSONL", () => {
  it("reads an object with string or number amounts and array or string tags; null clears", () => {
    const parsed = patch(
      jsonlLineParser(
        JSON.stringify({
          sku: "J-1",
          title: "Jug",
          tags: ["kitchen", "jugs"],
          currency: "EUR",
          price: 19.99,
          cost: "7.10",
          compare_at_price: null,
          inventory: 3,
          units_sold_30d: 12
        }),
        1
      )
    )
    assert.deepStrictEqual(parsed, {
      sku: "J-1",
      title: "Jug",
      tags: ["kitchen", "jugs"],
      currency: CurrencyCode.make("EUR"),
      price: "19.99",
      cost: "7.10",
      compareAtPrice: null,
      inventory: 3,
      unitsSold30d: 12
    })
    assert.deepStrictEqual(
      patch(jsonlLineParser('{"sku":"J-2","title":"Cup","tags":"a;b","currency":"USD","price":"1"}', 2)).tags,
      ["a", "b"]
    )
    assert.deepStrictEqual(patch(jsonlLineParser('{"sku":"J-2","tags":[]}', 3)), { sku: "J-2", tags: [] })
    assert.deepStrictEqual(patch(jsonlLineParser('{"sku":"J-2","cost":""}', 3)), { sku: "J-2" })
  })

  it("reads the store refs as strings only (a number could lose digits of a store id); null unlinks", () => {
    const linked = patch(
      jsonlLineParser(
        '{"sku":"J","title":"Jug","currency":"USD","price":"1","store_product_ref":"p-1","store_variant_ref":"v-1"}',
        2
      )
    )
    assert.deepStrictEqual([linked.storeProductRef, linked.storeVariantRef], ["p-1", "v-1"])
    assert.match(
      error(jsonlLineParser('{"sku":"J","title":"Jug","currency":"USD","price":"1","store_variant_ref":445634}', 3)),
      /^store_variant_ref: expected a string$/
    )
    assert.strictEqual(patch(jsonlLineParser('{"sku":"J","store_variant_ref":null}', 4)).storeVariantRef, null)
  })

  const badLines: ReadonlyArray<readonly [string, string, RegExp]> = [
    ["invalid JSON", '{"sku": "x",', /^not valid JSON$/],
    ["an array", "[1,2]", /^expected a JSON object$/],
    ["a number", "42", /^expected a JSON object$/],
    ["an unknown key", '{"sku":"x","title":"t","currency":"USD","price":"1","colour":"red"}', /^unknown key "colour"/],
    ["a non-string sku", '{"sku":5,"title":"t","currency":"USD","price":"1"}', /^sku: expected a string$/],
    [
      "a boolean price",
      '{"sku":"x","title":"t","currency":"USD","price":true}',
      /^price: expected a string or a number$/
    ],
    [
      "an exponent price",
      '{"sku":"x","title":"t","currency":"USD","price":1e21}',
      /^price: expected a string or a number$/
    ],
    ["a negative price", '{"sku":"x","title":"t","currency":"USD","price":-1}', /^price: "-1" is not an amount/],
    [
      "bad tags",
      '{"sku":"x","title":"t","currency":"USD","price":"1","tags":[1]}',
      /^tags: expected an array of strings/
    ],
    ["a cleared price", '{"sku":"x","price":null}', /^price cannot be cleared/],
    ["a cleared title", '{"sku":"x","title":null}', /^title cannot be cleared/],
    ["a cleared units sold", '{"sku":"x","units_sold_30d":null}', /^units_sold_30d cannot be cleared/],
    ["no sku", '{"price":"1"}', /^sku is required$/]
  ]
  for (const [name, text, expected] of badLines) {
    it(`rejects ${name}`, () => {
      const parsed = jsonlLineParser(text, 9)
      assert.strictEqual(parsed.line, 9)
      assert.match(error(parsed), expected)
    })
  }

  it("skips blank lines", () => {
    assert.strictEqual(jsonlLineParser("", 5)._tag, "Blank")
  })
})

describe("formatOfFileName", () => {
  it("knows csv and jsonl by extension", () => {
    assert.deepStrictEqual(formatOfFileName("items.CSV"), Result.succeed("csv"))
    assert.deepStrictEqual(formatOfFileName("/tmp/items.jsonl"), Result.succeed("jsonl"))
    assert.deepStrictEqual(formatOfFileName("items.ndjson"), Result.succeed("jsonl"))
    assert.isTrue(Result.isFailure(formatOfFileName("items.xlsx")))
  })
})
