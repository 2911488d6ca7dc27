import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { displayable, unsafeCharacterIn } from "./OAuthText.ts"

const unsafe = [
  "\u0000",
  "\r",
  "\n",
  "\t",
  "\u007f",
  "\u0085",
  "\u2028",
  "\u2029",
  "\u202e",
  "\u200f",
  "\u2066",
  "\ud800"
]

describe("OAuthText", () => {
  it("names controls, separators, bidi controls and lone surrogates by code point", () => {
    assert.deepStrictEqual(
      unsafe.map((char) => unsafeCharacterIn(`a${char}b`)),
      [
        "U+0000",
        "U+000D",
        "U+000A",
        "U+0009",
        "U+007F",
        "U+0085",
        "U+2028",
        "U+2029",
        "U+202E",
        "U+200F",
        "U+2066",
        "U+D800"
      ]
    )
  })

  it("passes ordinary text, accents, emoji and right-to-left scripts", () => {
    for (const text of ["Claude Code", "Agent für Preise", "🤖 bot", "وكيل", "mcl_01abc", "https://a.example/cb?x=1"]) {
      assert.isUndefined(unsafeCharacterIn(text))
      assert.strictEqual(displayable(text), text)
    }
  })

  it("displayable leaves nothing unsafeCharacterIn would name", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme-composite" }), fc.constantFrom(...unsafe), (text, char) => {
        const shown = displayable(`${text}${char}${text}`)
        return unsafeCharacterIn(shown) === undefined && shown === displayable(text).repeat(2)
      })
    )
  })
})
