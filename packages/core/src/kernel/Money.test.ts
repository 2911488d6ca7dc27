import { assert, describe, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import * as fc from "fast-check"
import { CurrencyCode, formatMajorUnits, formatMoney, Money, minorUnitExponent, parseMajorUnits } from "./Money.ts"

const code = CurrencyCode.make
const USD = code("USD")
const JPY = code("JPY")
const KWD = code("KWD")

const parsed = (text: string, currency: CurrencyCode) => {
  const result = parseMajorUnits(text, currency)
  return Result.isSuccess(result) ? result.success : `error: ${result.failure}`
}

describe("CurrencyCode", () => {
  it("accepts three uppercase letters only", () => {
    const is = Schema.is(CurrencyCode)
    assert.isTrue(is("USD"))
    for (const bad of ["usd", "US", "USDT", "U$D", "", " USD"]) assert.isFalse(is(bad), bad)
  })
})

describe("minorUnitExponent", () => {
  it("follows ISO 4217", () => {
    assert.deepStrictEqual(
      ["USD", "EUR", "JPY", "KRW", "VND", "CLP", "ISK", "BHD", "KWD", "OMR", "JOD", "TND", "LYD", "IQD", "CLF"].map(
        (c) => minorUnitExponent(code(c))
      ),
      [2, 2, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 3, 3, 4]
    )
  })
  it("assumes 2 decimals for an unlisted code", () => {
    assert.strictEqual(minorUnitExponent(code("XYZ")), 2)
  })
})

describe("Money", () => {
  it("is an integer amount of minor units with a currency", () => {
    assert.isTrue(Schema.is(Money)({ amount: 1234, currency: "USD" }))
    assert.isFalse(Schema.is(Money)({ amount: 12.34, currency: "USD" }))
    assert.isFalse(Schema.is(Money)({ amount: 1234, currency: "usd" }))
  })
})

describe("parseMajorUnits", () => {
  it("reads major units into minor units", () => {
    assert.strictEqual(parsed("12.34", USD), 1234)
    assert.strictEqual(parsed("12", USD), 1200)
    assert.strictEqual(parsed("12.3", USD), 1230)
    assert.strictEqual(parsed("0.05", USD), 5)
    assert.strictEqual(parsed(" 7.00 ", USD), 700)
    assert.strictEqual(parsed("500", JPY), 500)
    assert.strictEqual(parsed("1.234", KWD), 1234)
  })
  it("accepts extra decimals only when they are zeros", () => {
    assert.strictEqual(parsed("12.340", USD), 1234)
    assert.strictEqual(parsed("500.00", JPY), 500)
  })
  it("rejects more decimals than the currency has", () => {
    assert.match(String(parsed("12.345", USD)), /^error: .*more than 2 decimals.*USD/)
    assert.match(String(parsed("500.5", JPY)), /^error: .*more than 0 decimals/)
  })
  it("rejects garbage, negatives and other notations", () => {
    for (const bad of ["", "abc", "-1", "-0.01", "1,234.00", "1.2.3", "12.", ".5", "1e3", "$12", "12 34", "Infinity"]) {
      assert.match(String(parsed(bad, USD)), /^error: /, bad)
    }
  })
  it("rejects amounts beyond a safe integer", () => {
    assert.match(String(parsed("90071992547409.93", USD)), /^error: .*too large/)
  })
})

describe("formatMajorUnits", () => {
  it("writes minor units as major units", () => {
    assert.strictEqual(formatMajorUnits(1234, USD), "12.34")
    assert.strictEqual(formatMajorUnits(5, USD), "0.05")
    assert.strictEqual(formatMajorUnits(0, USD), "0.00")
    assert.strictEqual(formatMajorUnits(-1234, USD), "-12.34")
    assert.strictEqual(formatMajorUnits(500, JPY), "500")
    assert.strictEqual(formatMajorUnits(-500, JPY), "-500")
    assert.strictEqual(formatMajorUnits(1234, KWD), "1.234")
    assert.strictEqual(formatMajorUnits(5, KWD), "0.005")
  })
  it("adds the currency for people", () => {
    assert.strictEqual(formatMoney(1234, USD), "12.34 USD")
  })
  it("is read back by parseMajorUnits", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.constantFrom(USD, JPY, KWD),
        (minor, currency) => {
          assert.strictEqual(parsed(formatMajorUnits(minor, currency), currency), minor)
        }
      )
    )
  })
})
