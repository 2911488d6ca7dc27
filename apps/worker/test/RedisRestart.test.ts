import { assert, describe, it } from "@effect/vitest"
import { seedApprovalWorkspace } from "@margin/runtime/testing/ApprovalWorld"
import { requestOver } from "@margin/runtime/testing/ApproveRequest"
import { startRestServer } from "@margin/runtime/testing/ChildProcesses"
import { sample } from "@margin/runtime/testing/MetricSample"
import { countedFor, startRedisServer } from "@margin/runtime/testing/RedisServer"
import * as ScratchDatabase from "@margin/runtime/testing/ScratchDatabase"
import { Array as Arr, Clock, Duration, Effect } from "effect"

/**
 * The rate budget's Redis crashes and comes back, under a REST server process (docs/operations.md,
 * "Rate budget when its store is down"): while Redis is away the process counts the token in its
 * own memory, from what Redis had counted, with the same limit (over it: 429), says so in its log and its metrics; once Redis
 * answers again on the same address the process counts there again by itself, without a restart.
 */

const limit = 10

/** Budgets are fixed minutes: a burst starts well inside one, so that no reset happens in the middle of it. */
const awayFromWindowEdge = Effect.gen(function* () {
  const now = yield* Clock.currentTimeMillis
  const left = 60_000 - (now % 60_000)
  if (left < 10_000) yield* Effect.sleep(left + 200)
})

describe("the rate budget's Redis crashes and restarts under a REST server process", () => {
  it.live(
    "counted in Redis; while Redis is down, counted in the process's memory with the same limit, logged and in the metrics; Redis used again once it is back",
    () =>
      Effect.gen(function* () {
        const database = yield* ScratchDatabase.ScratchDatabase
        const { token, tokenId } = yield* seedApprovalWorkspace()
        const redis = yield* startRedisServer("redis")
        const api = yield* startRestServer("api", {
          DATABASE_URL: database.url,
          REDIS_URL: redis.url,
          RATE_LIMIT_PER_MINUTE: String(limit),
          // While Redis is up, it decides: however loaded the machine, no count outlasts this.
          RATE_LIMIT_REDIS_TIMEOUT: "30 seconds"
        })
        const status = requestOver(`${api.baseUrl}/api/v1/workspace/status`, token, { method: "GET" })
        const burst = (size: number) =>
          Effect.map(
            Effect.all(
              Arr.makeBy(size, () => status),
              { concurrency: "unbounded" }
            ),
            (answers) => answers.map((answer) => answer.status).toSorted()
          )
        const metrics = Effect.promise(() => fetch(`${api.baseUrl}/metrics`).then((response) => response.text()))

        // Redis counts.
        yield* awayFromWindowEdge
        const countedIn = Math.floor((yield* Clock.currentTimeMillis) / 60_000)
        assert.deepStrictEqual(yield* burst(4), [200, 200, 200, 200])
        const fellBack = sample(yield* metrics, "margin_rate_budget_fallback_total")
        assert.strictEqual(fellBack, 0, "no request fell back to the memory budget while Redis was up")
        assert.strictEqual(yield* countedFor(redis.url, tokenId), 4, "the requests are counted in Redis")

        // Redis crashes: still served, within the limit, in this process's memory, which goes on from
        // the 4 Redis counted when the window is still the same.
        yield* redis.kill9
        yield* awayFromWindowEdge
        const left = Math.floor((yield* Clock.currentTimeMillis) / 60_000) === countedIn ? limit - 4 : limit
        assert.deepStrictEqual(yield* burst(limit + 5), [
          ...Arr.makeBy(left, () => 200),
          ...Arr.makeBy(limit + 5 - left, () => 429)
        ])
        const down = yield* metrics
        assert.strictEqual(sample(down, "margin_rate_budget_degraded"), 1)
        assert.strictEqual(sample(down, "margin_rate_budget_fallback_total"), limit + 5, "every request fell back")
        // Log lines leave the server in batches, a moment after the requests they follow.
        yield* api.waitForOutput(
          /rate budget: redis cannot count requests; this process counts them in memory/,
          Duration.seconds(10)
        )

        // Redis is back on the same address, empty: the process counts there again by itself.
        const again = yield* startRedisServer("redis-again", redis.port)
        yield* api.waitUntil(
          Effect.andThen(status, api.output).pipe(
            Effect.map((output) => output.includes("rate budget: redis counts requests again"))
          ),
          "the rate budget counting in Redis again",
          Duration.seconds(30)
        )
        // The request that found Redis back (and any probe sent before its log line was read).
        const recovered = yield* countedFor(again.url, tokenId)
        assert.isAtLeast(recovered, 1, "the requests since Redis is back are counted there")
        assert.deepStrictEqual(yield* burst(3), [200, 200, 200])
        assert.strictEqual(yield* countedFor(again.url, tokenId), recovered + 3, "later requests are counted in Redis")
        const up = yield* metrics
        assert.strictEqual(sample(up, "margin_rate_budget_degraded"), 0)
        assert.isAtLeast(sample(up, "margin_rate_budget_fallback_total"), limit + 5)
        assert.strictEqual(
          (yield* api.output).match(/redis cannot count requests/g)?.length,
          1,
          "the outage is logged once"
        )
      }).pipe(Effect.scoped, Effect.provide(ScratchDatabase.layer)),
    { timeout: 180_000 }
  )
})
