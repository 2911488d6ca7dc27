import { NodeRedis } from "@effect/platform-node"
import type { TokenId } from "@margin/core/kernel/Ids"
import { Duration, Effect, Layer, type Scope } from "effect"
import { Redis } from "effect/persistence"
import { type Child, freePort, spawnProgram } from "./ChildProcesses.ts"

/**
 * A private Redis for the tests that share a budget or take Redis away: `redis-server` on a port of
 * its own (no other test's keys, no persistence), killed with the scope. Started again on the same
 * port, it is the same address with an empty memory, as after a crash.
 */

export interface RedisServer extends Child {
  readonly port: number
  /** `redis://127.0.0.1:<port>`, for REDIS_URL. */
  readonly url: string
}

/** redis-server on `port` (a free one unless given), ready once it accepts connections. */
export const startRedisServer = (name: string, port?: number): Effect.Effect<RedisServer, never, Scope.Scope> =>
  Effect.gen(function* () {
    const listening = port ?? (yield* freePort)
    const child = yield* spawnProgram(
      name,
      "redis-server",
      ["--port", String(listening), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      {}
    )
    yield* child.waitForOutput(/Ready to accept connections/, Duration.seconds(20))
    return { ...child, port: listening, url: `redis://127.0.0.1:${listening}` }
  })

/**
 * How many requests of the token the Redis at `url` has counted, over every minute window
 * (RedisRateBudget's keys `margin:rate:token:<id>:<window start>`); read on a connection of its own.
 */
export const countedFor = (url: string, tokenId: TokenId): Effect.Effect<number> =>
  Effect.gen(function* () {
    const redis = yield* Redis.Redis
    const keys = yield* redis.send<ReadonlyArray<string>>("KEYS", `margin:rate:token:${tokenId}:*`)
    const counts = yield* Effect.forEach(keys, (key) => redis.send<string | null>("GET", key))
    return counts.reduce((sum, count) => sum + Number(count ?? 0), 0)
  }).pipe(Effect.provide(Layer.fresh(NodeRedis.layer({ url }))), Effect.orDie)
