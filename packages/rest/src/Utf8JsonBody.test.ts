import { assert, describe, it } from "@effect/vitest"
import { wellFormedJson } from "./Utf8JsonBody.ts"

describe("Utf8JsonBody", () => {
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
