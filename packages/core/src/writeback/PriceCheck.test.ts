import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { checkPrice } from "./PriceCheck.ts"

describe("checkPrice", () => {
  it("writes only over the expected old price", () => {
    assert.deepStrictEqual(checkPrice(1000, { oldPrice: 1000, newPrice: 1200 }), { _tag: "Write" })
    assert.deepStrictEqual(checkPrice(1200, { oldPrice: 1000, newPrice: 1200 }), { _tag: "AlreadyApplied" })
    assert.deepStrictEqual(checkPrice(1100, { oldPrice: 1000, newPrice: 1200 }), {
      _tag: "PriceDrift",
      observedPrice: 1100
    })
  })

  it("a price already equal to the target is never written, even when old and new coincide", () => {
    assert.deepStrictEqual(checkPrice(500, { oldPrice: 500, newPrice: 500 }), { _tag: "AlreadyApplied" })
  })

  it("applying the write turns the next check into AlreadyApplied (a repeat is harmless)", () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.nat(), (current, oldPrice, newPrice) => {
        const first = checkPrice(current, { oldPrice, newPrice })
        const after = first._tag === "Write" ? newPrice : current
        const second = checkPrice(after, { oldPrice, newPrice })
        // Whatever the first answer, a second delivery never asks for another write.
        return second._tag !== "Write" && (first._tag !== "Write" || second._tag === "AlreadyApplied")
      })
    )
  })
})
