import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { type BudgetDecision, RateBudget } from "../access/RateBudget.ts"
import { RateBudgetStore } from "../access/RateBudgetStore.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { fixtureNow, minuteMs } from "./Fixtures.ts"

export type RateBudgetContractServices = RateBudget | IdGenerator

/**
 * A shared store's counts as the RateBudget, with no fallback: a failure of the store is a defect,
 * so that the contract holds the store itself to every count (servers add the fallback).
 */
export const strictRateBudget: Layer.Layer<RateBudget, never, RateBudgetStore> = Layer.effect(
  RateBudget,
  RateBudgetStore.useSync((store) => RateBudget.of({ consume: (key, now) => Effect.orDie(store.consume(key, now)) }))
)

/** A key no other test uses, so that budgets in a shared store stay apart. */
const freshKey = IdGenerator.use((ids) => ids.next("token")).pipe(Effect.map((id) => `token:${id}`))

/** `fixtureNow` is the start of a minute: the windows are the minutes since the epoch. */
const windowStart = fixtureNow

const consumeTimes = (key: string, times: number, now: number) =>
  RateBudget.use((budget) => Effect.forEach(Array.from({ length: times }), () => budget.consume(key, now)))

const allowed = (decisions: ReadonlyArray<BudgetDecision>) => decisions.filter((d) => d._tag === "Allowed").length

/** The RateBudget port's contract: every adapter configured with `limit` requests a minute must pass it. */
export const rateBudgetContract = <E>(name: string, services: Layer.Layer<RateBudgetContractServices, E>, limit = 60) =>
  layer(services)(`RateBudget contract (${name}, ${limit} a minute)`, (it) => {
    it.effect("allows `limit` requests in a window, counting down what remains, then limits", () =>
      Effect.gen(function* () {
        const key = yield* freshKey
        const decisions = yield* consumeTimes(key, limit + 2, windowStart + 10_000)
        assert.deepStrictEqual(
          decisions.slice(0, limit),
          Array.from({ length: limit }, (_, n) => ({ _tag: "Allowed", remaining: limit - 1 - n }))
        )
        assert.deepStrictEqual(decisions.slice(limit), [
          { _tag: "Limited", retryAfterSeconds: 50 },
          { _tag: "Limited", retryAfterSeconds: 50 }
        ])
      })
    )

    it.effect("Retry-After is the whole seconds until the window resets, 1 to 60", () =>
      Effect.gen(function* () {
        const cases = [
          { offset: 0, retryAfterSeconds: 60 },
          { offset: 1, retryAfterSeconds: 60 },
          { offset: 999, retryAfterSeconds: 60 },
          { offset: 1_000, retryAfterSeconds: 59 },
          { offset: 59_000, retryAfterSeconds: 1 },
          { offset: 59_999, retryAfterSeconds: 1 }
        ]
        for (const { offset, retryAfterSeconds } of cases) {
          const key = yield* freshKey
          const decisions = yield* consumeTimes(key, limit + 1, windowStart + offset)
          assert.deepStrictEqual(decisions[limit], { _tag: "Limited", retryAfterSeconds }, `at +${offset} ms`)
        }
      })
    )

    it.effect("the next window starts afresh; a window is a fixed minute, not a sliding one", () =>
      Effect.gen(function* () {
        const key = yield* freshKey
        const budget = yield* RateBudget
        yield* consumeTimes(key, limit, windowStart + 59_999)
        assert.strictEqual((yield* budget.consume(key, windowStart + 59_999))._tag, "Limited")
        assert.deepStrictEqual(yield* budget.consume(key, windowStart + minuteMs), {
          _tag: "Allowed",
          remaining: limit - 1
        })
      })
    )

    it.effect("every key has its own budget", () =>
      Effect.gen(function* () {
        const busy = yield* freshKey
        const quiet = yield* freshKey
        yield* consumeTimes(busy, limit + 1, windowStart)
        assert.deepStrictEqual(yield* RateBudget.use((budget) => budget.consume(quiet, windowStart)), {
          _tag: "Allowed",
          remaining: limit - 1
        })
      })
    )

    it.effect("concurrent requests never exceed the limit", () =>
      Effect.gen(function* () {
        const key = yield* freshKey
        const budget = yield* RateBudget
        const decisions = yield* Effect.all(
          Array.from({ length: Math.ceil(limit * 1.5) }, () => budget.consume(key, windowStart + 30_000)),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(allowed(decisions), limit)
      })
    )
  })
