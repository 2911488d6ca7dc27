import { NodeRedis } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { RateBudget } from "@margin/core/access/RateBudget"
import { RepositoryError } from "@margin/core/kernel/Errors"
import { makeRateWindows } from "@margin/core/memory/RateWindows"
import { ServiceMetrics } from "@margin/edge/telemetry"
import { RedisRateBudgetStore } from "@margin/redis"
import { Effect, Layer, Logger, Metric, References } from "effect"
import * as TcpProxy from "../testing/TcpProxy.ts"
import * as FallbackRateBudget from "./FallbackRateBudget.ts"

/** The Redis of CI (REDIS_TEST_URL), else a local one. */
const redisUrl = new URL(process.env.REDIS_TEST_URL ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379")

const messages: Array<string> = []
const reasons: Array<unknown> = []
const capture = Logger.make<unknown, void>(({ message, fiber }) => {
  messages.push(Array.isArray(message) ? message.map(String).join(" ") : String(message))
  reasons.push(fiber.getRef(References.CurrentLogAnnotations).reason)
})
const logging = Layer.merge(Logger.layer([capture]), Layer.succeed(References.MinimumLogLevel, "Info"))

const fallbacks = Effect.map(Metric.value(ServiceMetrics.rateBudgetFallbacks), (state) => state.count)
const now = 1_736_942_400_000 + 10_000

const refused = new RepositoryError({ operation: "RateBudget.consume", message: "connection refused" })

describe("FallbackRateBudget", () => {
  it.effect(
    "Redis cut under way: the limit still holds per process, exactly, logged once and counted",
    () =>
      Effect.gen(function* () {
        const proxy = yield* TcpProxy.make({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) })
        const budget = yield* Layer.build(
          FallbackRateBudget.layer.pipe(
            Layer.provide(RedisRateBudgetStore.layer({ limit: 3, prefix: `margin:test:${crypto.randomUUID()}` })),
            Layer.provide(NodeRedis.layer({ url: `redis://127.0.0.1:${proxy.port}`, disableOfflineQueue: true }))
          )
        )
        const consume = (key: string) => RateBudget.use((rate) => rate.consume(key, now)).pipe(Effect.provide(budget))
        assert.strictEqual((yield* consume("token:tok_0"))._tag, "Allowed", "Redis counts")
        const before = yield* fallbacks
        messages.length = 0
        yield* proxy.cut
        const decisions = yield* Effect.forEach(Array.from({ length: 5 }), () => consume("token:tok_1"))
        assert.deepStrictEqual(
          decisions.map((decision) => decision._tag),
          ["Allowed", "Allowed", "Allowed", "Limited", "Limited"]
        )
        // Another key has its own budget.
        assert.strictEqual((yield* consume("token:tok_2"))._tag, "Allowed")
        assert.strictEqual((yield* fallbacks) - before, 6)
        assert.strictEqual(
          messages.filter((message) => message.includes("redis cannot count requests")).length,
          1,
          messages.join("\n")
        )
        assert.strictEqual((yield* Metric.value(ServiceMetrics.rateBudgetDegraded)).value, 1)
      }).pipe(Effect.provide(logging), Effect.scoped),
    { timeout: 30_000 }
  )

  it.effect("a store that recovers is used again, and the recovery is logged once", () =>
    Effect.gen(function* () {
      let up = false
      const shared = new Map<string, number>()
      const rate = yield* FallbackRateBudget.make({
        name: "test",
        limit: 2,
        consume: (key, _now) =>
          up
            ? Effect.sync(() => {
                const count = (shared.get(key) ?? 0) + 1
                shared.set(key, count)
                return count <= 2
                  ? { _tag: "Allowed" as const, remaining: 2 - count }
                  : { _tag: "Limited" as const, retryAfterSeconds: 1 }
              })
            : Effect.fail(refused)
      })
      messages.length = 0
      reasons.length = 0
      assert.strictEqual((yield* rate.consume("k", now))._tag, "Allowed")
      assert.strictEqual(reasons[0], "connection refused", "the outage's log line says why")
      assert.strictEqual((yield* rate.consume("k", now))._tag, "Allowed")
      assert.strictEqual((yield* rate.consume("k", now))._tag, "Limited", "down: the memory budget limits")
      up = true
      assert.strictEqual((yield* rate.consume("k", now))._tag, "Allowed", "up: the shared store counts again")
      assert.strictEqual((yield* rate.consume("k", now))._tag, "Allowed")
      assert.strictEqual((yield* rate.consume("k", now))._tag, "Limited")
      assert.deepStrictEqual(
        messages.filter((message) => message.startsWith("rate budget")),
        [
          "rate budget: test cannot count requests; this process counts them in memory until it recovers",
          "rate budget: test counts requests again"
        ]
      )
      assert.strictEqual((yield* Metric.value(ServiceMetrics.rateBudgetDegraded)).value, 0)
    }).pipe(Effect.provide(logging))
  )

  /** A shared store that counts while `up` holds, else fails. */
  const flaky = (limit: number) =>
    Effect.gen(function* () {
      const state = { up: true }
      const shared = makeRateWindows(limit)
      const rate = yield* FallbackRateBudget.make({
        name: "test",
        limit,
        consume: (key, at) => (state.up ? Effect.sync(() => shared.consume(key, at)) : Effect.fail(refused))
      })
      const tags = (key: string, at: number, times: number) =>
        Effect.forEach(Array.from({ length: times }), () => Effect.map(rate.consume(key, at), (d) => d._tag))
      return { state, tags }
    })

  it.effect("an outage in the middle of a window goes on from the store's count, not from zero", () =>
    Effect.gen(function* () {
      const { state, tags } = yield* flaky(3)
      assert.deepStrictEqual(yield* tags("k", now, 2), ["Allowed", "Allowed"])
      state.up = false
      assert.deepStrictEqual(yield* tags("k", now, 2), ["Allowed", "Limited"])
      // The next window starts over, in memory too.
      assert.deepStrictEqual(yield* tags("k", now + 60_000, 4), ["Allowed", "Allowed", "Allowed", "Limited"])
    }).pipe(Effect.provide(logging))
  )

  it.effect("a store that fails again within the window does not start it over", () =>
    Effect.gen(function* () {
      const { state, tags } = yield* flaky(2)
      state.up = false
      assert.deepStrictEqual(yield* tags("k", now, 3), ["Allowed", "Allowed", "Limited"])
      // Back: the store, which saw none of those, allows one; then it fails again.
      state.up = true
      assert.deepStrictEqual(yield* tags("k", now, 1), ["Allowed"])
      state.up = false
      assert.deepStrictEqual(yield* tags("k", now, 1), ["Limited"])
      assert.deepStrictEqual(yield* tags("other", now, 2), ["Allowed", "Allowed"], "another key has its own budget")
    }).pipe(Effect.provide(logging))
  )

  it.effect("of several processes, each admits its share of the limit while the store cannot count", () =>
    Effect.gen(function* () {
      const down = { name: "test", limit: 60, consume: () => Effect.fail(refused) }
      // Three processes that all fell back at once (a store slower than its timeout): 20 + 20 + 20.
      const processes = yield* Effect.all(
        Array.from({ length: 3 }, () => FallbackRateBudget.make(down, { processes: 3 }))
      )
      const admitted = yield* Effect.forEach(processes, (rate) =>
        Effect.map(
          Effect.forEach(Array.from({ length: 60 }), () => rate.consume("k", now)),
          (decisions) => decisions.filter((decision) => decision._tag === "Allowed").length
        )
      )
      assert.deepStrictEqual(admitted, [20, 20, 20])
      assert.deepStrictEqual(
        [
          FallbackRateBudget.fallbackLimit(60, 1),
          FallbackRateBudget.fallbackLimit(10, 3),
          FallbackRateBudget.fallbackLimit(2, 5)
        ],
        [60, 3, 1]
      )
      // What the store counted before the outage counts against the share too.
      let up = true
      const shared = makeRateWindows(60)
      const rate = yield* FallbackRateBudget.make(
        {
          name: "test",
          limit: 60,
          consume: (key, at) => (up ? Effect.sync(() => shared.consume(key, at)) : Effect.fail(refused))
        },
        { processes: 3 }
      )
      yield* Effect.forEach(Array.from({ length: 15 }), () => rate.consume("j", now))
      up = false
      const after = yield* Effect.forEach(Array.from({ length: 10 }), () => rate.consume("j", now))
      assert.strictEqual(after.filter((decision) => decision._tag === "Allowed").length, 5)
    }).pipe(Effect.provide(logging))
  )
})
