import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import * as fc from "fast-check"
import {
  type CatalogLine,
  type CatalogLineParser,
  csvHeader,
  csvLineParser,
  formatOfFileName,
  jsonlLineParser,
  splitCsvRecord,
  toCsvLine
} from "../src/CatalogImport.ts"
import type { CatalogItemInput } from "../src/CatalogItem.ts"
import { CurrencyCode } from "../src/Money.ts"

const usd = CurrencyCode.make("USD")

const parser = (header: string = csvHeader): CatalogLineParser => {
  const result = csvLineParser(header)
  if (Result.isFailure(result)) return assert.fail(result.failure)
  return result.success
}

const item = (line: CatalogLine): CatalogItemInput => {
  if (line._tag !== "Item") return assert.fail(`expected an item, got ${JSON.stringify(line)}`)
  return line.item
}

const error = (line: CatalogLine): string => {
  if (line._tag !== "Rejected") return assert.fail(`expected a rejection, got ${JSON.stringify(line)}`)
  return line.error
}

describe("CatalogImport CSV", () => {
  it("reads a full line into minor units, tags and counts", () => {
    const parsed = item(parser()("SKU-1,Blue mug,kitchen;mugs,USD,12.99,5.5,15,10,20.00,42,7", 2))
    assert.deepStrictEqual(parsed, {
      sku: "SKU-1",
      title: "Blue mug",
      tags: ["kitchen", "mugs"],
      currency: usd,
      price: 1299,
      cost: 550,
      compareAtPrice: 1500,
      minPrice: 1000,
      maxPrice: 2000,
      inventory: 42,
      unitsSold30d: 7
    })
  })

  it("treats empty fields as unknown and units sold as 0", () => {
    const parsed = item(parser()("S2,Plate,,usd,3,,,,,,", 3))
    assert.deepStrictEqual(parsed, {
      sku: "S2",
      title: "Plate",
      tags: [],
      currency: usd,
      price: 300,
      cost: null,
      compareAtPrice: null,
      minPrice: null,
      maxPrice: null,
      inventory: null,
      unitsSold30d: 0
    })
  })

  it("uses the currency's minor unit", () => {
    assert.strictEqual(item(parser()("J1,Tea,,JPY,1200,,,,,,", 2)).price, 1200)
    assert.strictEqual(item(parser()("K1,Tea,,KWD,1.250,,,,,,", 2)).price, 1250)
    assert.match(error(parser()("J2,Tea,,JPY,12.5,,,,,,", 2)), /^price: .*more than 0 decimals/)
  })

  it("takes the columns in the header's order and leaves out optional ones", () => {
    const parse = parser("price,currency,title,sku")
    const parsed = item(parse("1.50,EUR,Spoon,SP-1", 2))
    assert.strictEqual(parsed.sku, "SP-1")
    assert.strictEqual(parsed.price, 150)
    assert.strictEqual(parsed.cost, null)
  })

  it("reads the optional store refs, trimmed; empty ones are left out (an update keeps the item's)", () => {
    const parse = parser(`${csvHeader},store_product_ref,store_variant_ref`)
    const linked = item(parse("S,Mug,,USD,1,,,,,,, gid://shopify/Product/7 ,44563467321", 2))
    assert.deepStrictEqual([linked.storeProductRef, linked.storeVariantRef], ["gid://shopify/Product/7", "44563467321"])
    const variantOnly = item(parse("S,Mug,,USD,1,,,,,,,,v-1", 3))
    assert.deepStrictEqual([Object.hasOwn(variantOnly, "storeProductRef"), variantOnly.storeVariantRef], [false, "v-1"])
    const none = item(parse("S,Mug,,USD,1,,,,,,, , ", 4))
    assert.isFalse(Object.hasOwn(none, "storeProductRef") || Object.hasOwn(none, "storeVariantRef"))
    assert.match(
      error(parse(`S,Mug,,USD,1,,,,,,,,${"v".repeat(256)}`, 5)),
      /^store_variant_ref is longer than 255 characters$/
    )
  })

  it("reads the optional competitor price: a file with the column sets it (empty = none), one without leaves it out", () => {
    const parse = parser(`${csvHeader},competitor_price`)
    assert.strictEqual(item(parse("S,Mug,,USD,10,,,,,,,9.50", 2)).competitorPrice, 950)
    assert.strictEqual(item(parse("S,Mug,,USD,10,,,,,,,", 3)).competitorPrice, null)
    assert.match(error(parse("S,Mug,,USD,10,,,,,,,cheap", 4)), /^competitor_price: /)
    assert.isFalse(Object.hasOwn(item(parser()("S,Mug,,USD,10,,,,,,", 5)), "competitorPrice"))
    const json = (text: string) =>
      item(jsonlLineParser(`{"sku":"J","title":"Jug","currency":"JPY","price":"1000"${text}}`, 6))
    assert.strictEqual(json(',"competitor_price":980').competitorPrice, 980)
    assert.strictEqual(json(',"competitor_price":null').competitorPrice, null)
    assert.isFalse(Object.hasOwn(json(""), "competitorPrice"))
  })

  it("reads quoted fields with commas and doubled quotes", () => {
    const parsed = item(parser()('Q1,"Mug, large ""XL""",,USD,9,,,,,,', 2))
    assert.strictEqual(parsed.title, 'Mug, large "XL"')
    assert.deepStrictEqual(Result.getOrThrow(splitCsvRecord('"",a,"b"')), ["", "a", "b"])
    assert.deepStrictEqual(Result.getOrThrow(splitCsvRecord("a,,")), ["a", "", ""])
  })

  it("keeps a floor above the ceiling for the run to raise an alert about", () => {
    const parsed = item(parser()("S,Mug,,USD,1,,,5,4,,", 2))
    assert.deepStrictEqual([parsed.minPrice, parsed.maxPrice], [500, 400])
  })

  it("skips blank lines and strips a byte order mark from the header", () => {
    assert.strictEqual(parser()("   ", 4)._tag, "Blank")
    assert.isTrue(Result.isSuccess(csvLineParser(`\uFEFF${csvHeader}`)))
  })

  it("rejects a bad header with the reason", () => {
    const failure = (header: string): string => Result.getOrThrow(Result.flip(csvLineParser(header)))
    assert.match(failure("sku,title,currency,prize"), /unknown column "prize"/)
    assert.match(failure("sku,title,currency"), /missing column price/)
    assert.match(failure("sku,title,currency,price,sku"), /"sku" appears twice/)
    assert.match(failure('sku,"title'), /not closed/)
  })

  const badLines: ReadonlyArray<readonly [string, string, RegExp]> = [
    ["missing sku", ",Mug,,USD,1,,,,,,", /^sku is required$/],
    ["overlong sku", `${"x".repeat(129)},Mug,,USD,1,,,,,,`, /^sku is longer than 128/],
    ["missing title", "S,,,USD,1,,,,,,", /^title is required$/],
    ["missing currency", "S,Mug,,,1,,,,,,", /^currency is required$/],
    ["bad currency", "S,Mug,,DOLLARS,1,,,,,,", /^currency: "DOLLARS" is not an ISO 4217 code/],
    ["missing price", "S,Mug,,USD,,,,,,,", /^price is required$/],
    ["price not a number", "S,Mug,,USD,abc,,,,,,", /^price: "abc" is not an amount/],
    ["negative price", "S,Mug,,USD,-1,,,,,,", /^price: "-1" is not an amount/],
    ["too many decimals", "S,Mug,,USD,1.999,,,,,,", /^price: .*more than 2 decimals/],
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

  it("round-trips any valid item through toCsvLine", () => {
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
        assert.deepStrictEqual(item(parser()(toCsvLine(input), 2)), input)
      })
    )
  })
})

describe("CatalogImport JSONL", () => {
  it("reads an object with string or number amounts and array or string tags", () => {
    const parsed = item(
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
      price: 1999,
      cost: 710,
      compareAtPrice: null,
      minPrice: null,
      maxPrice: null,
      inventory: 3,
      unitsSold30d: 12
    })
    assert.deepStrictEqual(
      item(jsonlLineParser('{"sku":"J-2","title":"Cup","tags":"a;b","currency":"USD","price":"1"}', 2)).tags,
      ["a", "b"]
    )
  })

  it("reads the store refs as strings only (a number could lose digits of a store id)", () => {
    const linked = item(
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
    const unlinked = item(
      jsonlLineParser('{"sku":"J","title":"Jug","currency":"USD","price":"1","store_variant_ref":null}', 4)
    )
    assert.isFalse(Object.hasOwn(unlinked, "storeVariantRef"))
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
    ["a missing price", '{"sku":"x","title":"t","currency":"USD"}', /^price is required$/]
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
