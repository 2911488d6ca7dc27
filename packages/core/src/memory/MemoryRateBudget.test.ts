import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as MemoryIdGenerator from "../../src/memory/MemoryIdGenerator.ts"
import * as MemoryRateBudget from "../../src/memory/MemoryRateBudget.ts"
import { RateBudget } from "../access/RateBudget.ts"
import { rateBudgetContract } from "../testing/RateBudgetContract.ts"

rateBudgetContract("memory", Layer.merge(MemoryRateBudget.layer, MemoryIdGenerator.layer))
rateBudgetContract("memory", Layer.merge(MemoryRateBudget.layerWith({ limit: 3 }), MemoryIdGenerator.layer), 3)

describe("MemoryRateBudget", () => {
  it.effect("the layer's limit is configurable", () =>
    Effect.gen(function* () {
      const budget = yield* RateBudget
      assert.deepStrictEqual(yield* budget.consume("user:a", 0), { _tag: "Allowed", remaining: 0 })
      assert.deepStrictEqual(yield* budget.consume("user:a", 0), { _tag: "Limited", retryAfterSeconds: 60 })
    }).pipe(Effect.provide(MemoryRateBudget.layerWith({ limit: 1 })))
  )
})
