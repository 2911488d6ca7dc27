import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { decide, minuteMs, windowStart } from "./FixedWindow.ts"

describe("FixedWindow", () => {
  it("windows are the minutes since the epoch", () => {
    assert.strictEqual(windowStart(1_736_942_459_999, minuteMs), 1_736_942_400_000)
    assert.strictEqual(windowStart(1_736_942_460_000, minuteMs), 1_736_942_460_000)
  })

  it("allows up to the limit, then answers whole seconds until the window resets, 1 to 60", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.integer({ min: 1, max: 1000 }), (now, limit) => {
        const start = windowStart(now, minuteMs)
        assert.deepStrictEqual(decide(limit, limit, start, minuteMs, now), { _tag: "Allowed", remaining: 0 })
        const limited = decide(limit + 1, limit, start, minuteMs, now)
        assert.strictEqual(limited._tag, "Limited")
        if (limited._tag === "Limited") {
          assert.isTrue(Number.isInteger(limited.retryAfterSeconds))
          assert.isTrue(limited.retryAfterSeconds >= 1 && limited.retryAfterSeconds <= 60)
          assert.strictEqual(limited.retryAfterSeconds, Math.ceil((start + minuteMs - now) / 1000))
        }
      })
    )
  })
})
