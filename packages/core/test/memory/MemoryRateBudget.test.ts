import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as fc from "fast-check"
import * as MemoryIdGenerator from "../../src/memory/MemoryIdGenerator.ts"
import * as MemoryRateBudget from "../../src/memory/MemoryRateBudget.ts"
import { RateBudget } from "../../src/ports/RateBudget.ts"
import { rateBudgetContract } from "../../testing/RateBudgetContract.ts"

rateBudgetContract("memory", Layer.merge(MemoryRateBudget.layer, MemoryIdGenerator.layer))
rateBudgetContract("memory", Layer.merge(MemoryRateBudget.layerWith({ limit: 3 }), MemoryIdGenerator.layer), 3)

describe("MemoryRateBudget.consumeIn", () => {
  it("Retry-After is ceil((window end - now) / 1000), always 1 to 60", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (now) => {
        const [, window] = MemoryRateBudget.consumeIn(undefined, now, 0)
        const [decision] = MemoryRateBudget.consumeIn(window, now, 0)
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
        const [decision, window] = MemoryRateBudget.consumeIn({ start, count }, start + 60_000, 1)
        assert.deepStrictEqual(decision, { _tag: "Allowed", remaining: 0 })
        assert.deepStrictEqual(window, { start: start + 60_000, count: 1 })
      })
    )
  })

  it.effect("the layer's limit is configurable", () =>
    Effect.gen(function* () {
      const budget = yield* RateBudget
      assert.deepStrictEqual(yield* budget.consume("user:a", 0), { _tag: "Allowed", remaining: 0 })
      assert.deepStrictEqual(yield* budget.consume("user:a", 0), { _tag: "Limited", retryAfterSeconds: 60 })
    }).pipe(Effect.provide(MemoryRateBudget.layerWith({ limit: 1 })))
  )
})
