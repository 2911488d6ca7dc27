import { decide, minuteMs, windowStart } from "@margin/core/access/FixedWindow"
import { RateBudgetStore } from "@margin/core/access/RateBudgetStore"
import { RepositoryError, reasonOf } from "@margin/core/kernel/Errors"
import { Effect, Layer } from "effect"
import { Redis } from "effect/persistence"

/**
 * INCR and PEXPIRE in one script: atomic on the server, so the count is exact however many
 * processes share the budget. The window's first request sets the key to expire a second after
 * the window ends (relative, so the server's clock does not matter).
 */
const countRequest = Redis.script((key: string, ttlMs: number) => [key, String(ttlMs)], {
  lua: `local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`,
  numberOfKeys: 1
}).withReturnType<unknown>()

export interface RedisRateBudgetStoreOptions {
  readonly limit: number
  readonly windowMs?: number
  /** Key namespace, so that tests and deployments sharing one Redis do not collide. */
  readonly prefix?: string
  /**
   * A count that takes longer than this (default 2000 ms) fails, and the servers count in memory:
   * long enough that a loaded machine's pauses are waited out, since each fallback decides alone.
   */
  readonly timeoutMs?: number
}

/**
 * The shared budget on Redis. A count Redis cannot make (down, slower than `timeoutMs`) fails with
 * RepositoryError, saying why; the servers then count in memory until it is back
 * (FallbackRateBudget of @margin/runtime): an outage of the limiter neither takes the API down nor
 * lets a token through unlimited.
 */
export const layer = (options: RedisRateBudgetStoreOptions): Layer.Layer<RateBudgetStore, never, Redis.Redis> =>
  Layer.effect(
    RateBudgetStore,
    Effect.gen(function* () {
      const redis = yield* Redis.Redis
      const run = redis.eval(countRequest)
      const windowMs = options.windowMs ?? minuteMs
      const prefix = options.prefix ?? "margin:rate"
      return RateBudgetStore.of({
        name: "redis",
        limit: options.limit,
        consume: (key, now) => {
          const start = windowStart(now, windowMs)
          return run(`${prefix}:${key}:${start}`, start + windowMs - now + 1000).pipe(
            Effect.timeout(options.timeoutMs ?? 2000),
            // One continuation for both outcomes: every request runs this.
            Effect.mapBoth({
              onFailure: (error) => new RepositoryError({ operation: "RateBudget.consume", message: reasonOf(error) }),
              onSuccess: (count) =>
                decide(typeof count === "number" ? count : Number(count), options.limit, start, windowMs, now)
            })
          )
        }
      })
    })
  )
