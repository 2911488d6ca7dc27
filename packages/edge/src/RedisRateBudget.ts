import { RateBudget } from "@margin/core/ports/RateBudget"
import { Effect, Layer } from "effect"
import { Redis } from "effect/persistence"
import { decide, minuteMs, windowStart } from "./FixedWindow.ts"

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
}

/**
 * The shared budget on Redis. If Redis cannot answer, the request is let through and a warning
 * logged: an outage of the limiter should not take the API down with it.
 */
export const layer = (options: RedisRateBudgetOptions): Layer.Layer<RateBudget, never, Redis.Redis> =>
  Layer.effect(
    RateBudget,
    Effect.gen(function* () {
      const redis = yield* Redis.Redis
      const run = redis.eval(countRequest)
      const windowMs = options.windowMs ?? minuteMs
      const prefix = options.prefix ?? "margin:rate"
      return RateBudget.of({
        consume: (key, now) => {
          const start = windowStart(now, windowMs)
          return run(`${prefix}:${key}:${start}`, start + windowMs - now + 1000).pipe(
            Effect.map((count) =>
              decide(typeof count === "number" ? count : Number(count), options.limit, start, windowMs, now)
            ),
            Effect.catch((error) =>
              Effect.as(
                Effect.logWarning("rate budget unavailable, request let through", error.message),
                decide(1, options.limit, start, windowMs, now)
              )
            )
          )
        }
      })
    })
  )
