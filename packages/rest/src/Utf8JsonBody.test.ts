import { assert, describe, it } from "@effect/vitest"
import { charsetOf, wellFormedJson } from "./Utf8JsonBody.ts"

describe("Utf8JsonBody", () => {
  it("reads the charset parameter of a content type, in any case, quoted or not", () => {
    assert.strictEqual(charsetOf("application/json"), undefined)
    assert.strictEqual(charsetOf("application/json; charset=utf-8"), "utf-8")
    assert.strictEqual(charsetOf("application/json;CHARSET=UTF-16LE"), "utf-16le")
    assert.strictEqual(charsetOf('application/json; foo=bar; charset="Latin1"'), "latin1")
    assert.strictEqual(charsetOf("application/json; charsetx=utf-16"), undefined)
  })

  it("finds a lone surrogate in any string of a JSON value, keys included; pairs are fine", () => {
    assert.isTrue(wellFormedJson({ a: ["b", { c: "caf\u00e9 \ud83d\ude00" }], n: 1, t: null }))
    assert.isFalse(wellFormedJson({ a: ["b", { c: "x\ud800" }] }))
    assert.isFalse(wellFormedJson({ "\udc00": 1 }))
    assert.isFalse(wellFormedJson("\ud83d"))
  })

  it("walks a deeply nested or very long value without overflowing the stack", () => {
    let value: unknown = "\ud800"
    for (let depth = 0; depth < 200_000; depth++) value = [value]
    assert.isFalse(wellFormedJson(value))
    assert.isTrue(wellFormedJson(Array.from({ length: 600_000 }, () => 1)))
  })
})
