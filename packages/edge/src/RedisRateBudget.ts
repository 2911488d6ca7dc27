import { decide, minuteMs, windowStart } from "@margin/core/FixedWindow"
import { RateBudget } from "@margin/core/ports/RateBudget"
import { Effect, Layer } from "effect"
import { Redis } from "effect/persistence"
import * as FallbackRateBudget from "./FallbackRateBudget.ts"

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

export interface RedisRateBudgetOptions {
  readonly limit: number
  readonly windowMs?: number
  /** Key namespace, so that tests and deployments sharing one Redis do not collide. */
  readonly prefix?: string
  /** A count that takes longer than this (default 500 ms) is given up for the memory budget. */
  readonly timeoutMs?: number
}

/**
 * The shared budget on Redis. If Redis cannot answer, each process counts in its own memory
 * budget until it is back (FallbackRateBudget): an outage of the limiter neither takes the API
 * down nor lets a token through unlimited.
 */
export const layer = (options: RedisRateBudgetOptions): Layer.Layer<RateBudget, never, Redis.Redis> =>
  Layer.effect(
    RateBudget,
    Effect.gen(function* () {
      const redis = yield* Redis.Redis
      const run = redis.eval(countRequest)
      const windowMs = options.windowMs ?? minuteMs
      const prefix = options.prefix ?? "margin:rate"
      return yield* FallbackRateBudget.make({
        store: "redis",
        limit: options.limit,
        consume: (key, now) => {
          const start = windowStart(now, windowMs)
          return run(`${prefix}:${key}:${start}`, start + windowMs - now + 1000).pipe(
            Effect.timeout(options.timeoutMs ?? 500),
            Effect.map((count) =>
              decide(typeof count === "number" ? count : Number(count), options.limit, start, windowMs, now)
            )
          )
        }
      })
    })
  )
