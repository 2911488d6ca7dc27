import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { consumeIn, makeRateWindows } from "../../src/memory/RateWindows.ts"

describe("consumeIn", () => {
  it("Retry-After is ceil((window end - now) / 1000), always 1 to 60", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (now) => {
        const [, window] = consumeIn(undefined, now, 0)
        const [decision] = consumeIn(window, now, 0)
        const end = Math.floor(now / 60_000) * 60_000 + 60_000
        assert.deepStrictEqual(decision, { _tag: "Limited", retryAfterSeconds: Math.ceil((end - now) / 1000) })
        assert.isTrue(
          decision._tag === "Limited" && decision.retryAfterSeconds >= 1 && decision.retryAfterSeconds <= 60
        )
      })
    )
  })

  it("a request in a later window starts the count again", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 1, max: 100 }), (minute, count) => {
        const start = minute * 60_000
        const [decision, window] = consumeIn({ start, count }, start + 60_000, 1)
        assert.deepStrictEqual(decision, { _tag: "Allowed", remaining: 0 })
        assert.deepStrictEqual(window, { start: start + 60_000, count: 1 })
      })
    )
  })
})

describe("makeRateWindows", () => {
  const minute = 1_736_942_400_000

  it("counts each key on its own, up to the limit of its minute", () => {
    const windows = makeRateWindows(2)
    const tags = (key: string, at: number) => windows.consume(key, at)._tag
    assert.deepStrictEqual(
      [tags("a", minute), tags("a", minute + 1), tags("a", minute + 2), tags("b", minute + 3)],
      ["Allowed", "Allowed", "Limited", "Allowed"]
    )
    assert.strictEqual(tags("a", minute + 60_000), "Allowed", "a new minute starts over")
  })

  it("raise: a key goes on from at least what a shared store counted, never back down, in that minute only", () => {
    const windows = makeRateWindows(3)
    windows.raise("a", minute, 2)
    assert.deepStrictEqual(windows.consume("a", minute + 1), { _tag: "Allowed", remaining: 0 })
    windows.raise("a", minute + 2, 1)
    assert.strictEqual(windows.consume("a", minute + 3)._tag, "Limited", "a lower count does not lower it")
    windows.raise("b", minute, 3)
    assert.strictEqual(windows.consume("b", minute + 60_000)._tag, "Allowed", "a raise holds for its minute")
    // A raise from an earlier minute than the key's own does not go back in time.
    windows.raise("b", minute, 3)
    assert.deepStrictEqual(windows.consume("b", minute + 60_001), { _tag: "Allowed", remaining: 1 })
  })

  it("holds only the keys of the current minute: earlier windows go when a new minute opens", () => {
    const windows = makeRateWindows(60)
    for (let index = 0; index < 100; index++) windows.consume(`token:${index}`, minute)
    assert.strictEqual(windows.size(), 100)
    windows.consume("token:late", minute + 60_000)
    assert.strictEqual(windows.size(), 1)
  })
})
