import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
import { charsetOf, declaresOtherCharset, utf8Text } from "./Utf8Body.ts"

describe("Utf8Body", () => {
  it("reads the charset parameter of a content type, in any case, quoted or not", () => {
    assert.strictEqual(charsetOf("application/json"), undefined)
    assert.strictEqual(charsetOf("application/json; charset=utf-8"), "utf-8")
    assert.strictEqual(charsetOf("application/json;CHARSET=UTF-16LE"), "utf-16le")
    assert.strictEqual(charsetOf('application/json; foo=bar; charset="Latin1"'), "latin1")
    assert.strictEqual(charsetOf("application/json; charsetx=utf-16"), undefined)
  })

  it("only another declared charset than UTF-8 counts as other", () => {
    assert.isFalse(declaresOtherCharset("application/json"))
    assert.isFalse(declaresOtherCharset("application/json; charset=UTF-8"))
    assert.isFalse(declaresOtherCharset("application/json; charset=utf8"))
    assert.isTrue(declaresOtherCharset("application/json; charset=utf-16"))
  })

  it("decodes UTF-8 and refuses bytes that are not", () => {
    assert.deepStrictEqual(utf8Text(new TextEncoder().encode("caf\u00e9").buffer), Option.some("caf\u00e9"))
    assert.isTrue(Option.isNone(utf8Text(new Uint8Array([0x7b, 0xff, 0x7d]).buffer)))
    assert.isTrue(Option.isNone(utf8Text(new Uint8Array([0xed, 0xa0, 0x80]).buffer)))
  })
})
