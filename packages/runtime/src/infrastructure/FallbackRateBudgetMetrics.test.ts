import { assert, it } from "@effect/vitest"
import { RateBudget } from "@margin/core/access/RateBudget"
import { RateBudgetStore } from "@margin/core/access/RateBudgetStore"
import { RepositoryError } from "@margin/core/kernel/Errors"
import { makeRateWindows } from "@margin/core/memory/RateWindows"
import { Effect, Layer, Logger } from "effect"
import { PrometheusMetrics } from "effect/observability"
import * as FallbackRateBudget from "./FallbackRateBudget.ts"

// A file of its own: its process has counted no budget decision before this test, so the scrape
// shows what a fresh server exports (FallbackRateBudget.test.ts moves the same metrics).

/** The value of the unlabelled sample `name` in a Prometheus text body; undefined when absent. */
const sample = (text: string, name: string): number | undefined => {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${name} `))
  return line === undefined ? undefined : Number(line.slice(name.length + 1))
}

const scrape = Effect.map(PrometheusMetrics.format(), (text) => ({
  fallbacks: sample(text, "margin_rate_budget_fallback_total"),
  degraded: sample(text, "margin_rate_budget_degraded")
}))

const now = 1_736_942_400_000 + 10_000
const refused = new RepositoryError({ operation: "RateBudget.consume", message: "connection refused" })

it.effect("the budget's series are exported at 0 before any outage, then move by exactly one per event", () =>
  Effect.gen(function* () {
    const state = { up: true }
    const shared = makeRateWindows(100)
    const store = Layer.succeed(
      RateBudgetStore,
      RateBudgetStore.of({
        name: "test",
        limit: 100,
        consume: (key, at) => (state.up ? Effect.sync(() => shared.consume(key, at)) : Effect.fail(refused))
      })
    )
    const budget = yield* Layer.build(FallbackRateBudget.layer.pipe(Layer.provide(store)))
    const consume = RateBudget.use((rate) => rate.consume("token:tok_1", now)).pipe(Effect.provide(budget))

    assert.deepStrictEqual(yield* scrape, { fallbacks: 0, degraded: 0 }, "a fresh process, no Redis, no outage")
    yield* consume
    assert.deepStrictEqual(yield* scrape, { fallbacks: 0, degraded: 0 }, "the store counted")
    state.up = false
    yield* consume
    assert.deepStrictEqual(yield* scrape, { fallbacks: 1, degraded: 1 }, "the first fallback")
    yield* consume
    assert.deepStrictEqual(yield* scrape, { fallbacks: 2, degraded: 1 }, "the second")
    state.up = true
    yield* consume
    assert.deepStrictEqual(yield* scrape, { fallbacks: 2, degraded: 0 }, "recovered")
  }).pipe(Effect.scoped, Effect.provide(Logger.layer([])))
)
