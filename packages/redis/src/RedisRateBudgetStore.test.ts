import { NodeRedis } from "@effect/platform-node"
import { assert, layer } from "@effect/vitest"
import { RateBudget } from "@margin/core/access/RateBudget"
import * as MemoryIdGenerator from "@margin/core/memory/MemoryIdGenerator"
import { rateBudgetContract, strictRateBudget } from "@margin/core/testing/RateBudgetContract"
import { Effect, Layer } from "effect"
import * as RedisRateBudgetStore from "./RedisRateBudgetStore.ts"

/** The Redis of CI (REDIS_TEST_URL), else a local one. */
const url = process.env.REDIS_TEST_URL ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379"

/** Keys of this test run and suite only: the shared Redis outlives them, and ids restart at 1 in every suite. */
const prefix = `margin:test:${crypto.randomUUID()}`

const budget = (limit: number) =>
  strictRateBudget.pipe(
    Layer.provide(RedisRateBudgetStore.layer({ limit, prefix: `${prefix}:${limit}` })),
    Layer.provide(Layer.fresh(NodeRedis.layer({ url }))),
    Layer.orDie
  )

rateBudgetContract("redis", Layer.merge(budget(60), MemoryIdGenerator.layer))
rateBudgetContract("redis", Layer.merge(budget(3), MemoryIdGenerator.layer), 3)

layer(Layer.empty)("RedisRateBudgetStore across processes", (it) => {
  it.effect("two clients on separate connections share one exact budget: 60 of 90 concurrent requests pass", () =>
    Effect.gen(function* () {
      const first = yield* Layer.build(budget(60))
      const second = yield* Layer.build(budget(60))
      const key = `token:${crypto.randomUUID()}`
      const now = 1_736_942_400_000 + 30_000
      const decisions = yield* Effect.all(
        Array.from({ length: 90 }, (_, n) =>
          RateBudget.use((rate) => rate.consume(key, now)).pipe(Effect.provide(n % 2 === 0 ? first : second))
        ),
        { concurrency: "unbounded" }
      )
      assert.strictEqual(decisions.filter((decision) => decision._tag === "Allowed").length, 60)
    })
  )
})
