import { assert, describe, it } from "@effect/vitest"
import { seedApprovalWorkspace } from "@margin/runtime/testing/ApprovalWorld"
import { startRestServer } from "@margin/runtime/testing/ChildProcesses"
import { fallbacksOf } from "@margin/runtime/testing/MetricSample"
import * as ScratchDatabase from "@margin/runtime/testing/ScratchDatabase"
import * as TcpProxy from "@margin/runtime/testing/TcpProxy"
import { Array as Arr, Clock, Effect, type Scope } from "effect"

/** The Redis of CI (REDIS_TEST_URL), else a local one. */
const redisUrl = process.env.REDIS_TEST_URL ?? "redis://127.0.0.1:6379"

interface Answer {
  readonly status: number
  readonly retryAfter: string | null
  readonly rateLimitHeaders: ReadonlyArray<string>
  readonly code: unknown
}

const getStatus = (baseUrl: string, token: string): Effect.Effect<Answer> =>
  Effect.promise(async () => {
    const response = await fetch(`${baseUrl}/api/v1/workspace/status`, {
      headers: { authorization: `Bearer ${token}` }
    })
    const body: unknown = await response.json()
    return {
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      rateLimitHeaders: [...response.headers.keys()].filter((name) => name.startsWith("x-ratelimit")),
      code: typeof body === "object" && body !== null && "code" in body ? body.code : null
    }
  })

/** The budget is a fixed minute: start a burst early in a window so that it cannot straddle two. */
const earlyInAWindow = Effect.gen(function* () {
  const now = yield* Clock.currentTimeMillis
  const intoWindow = now % 60_000
  if (intoWindow > 45_000) yield* Effect.sleep(60_000 - intoWindow + 500)
})

/**
 * Two REST servers with `env` spend one token's budget of 60 with 120 concurrent requests, half on
 * each; `beforeBurst` runs once both are up. Answers how many were allowed; every refusal must be
 * a proper 429. A count that fell back to a process's memory is named with the result.
 */
const burst = (
  env: Readonly<Record<string, string>>,
  beforeBurst: Effect.Effect<void, never, Scope.Scope> = Effect.void
) =>
  Effect.gen(function* () {
    const database = yield* ScratchDatabase.ScratchDatabase
    const { token } = yield* seedApprovalWorkspace()
    const servers = yield* Effect.all(
      [
        startRestServer("budget-a", { DATABASE_URL: database.url, RATE_LIMIT_PER_MINUTE: "60", ...env }),
        startRestServer("budget-b", { DATABASE_URL: database.url, RATE_LIMIT_PER_MINUTE: "60", ...env })
      ],
      { concurrency: "unbounded" }
    )
    yield* beforeBurst
    yield* earlyInAWindow
    const answers = yield* Effect.forEach(
      Arr.makeBy(120, (index) => servers[index % 2]?.baseUrl ?? ""),
      (baseUrl) => getStatus(baseUrl, token),
      { concurrency: "unbounded" }
    )
    const limited = answers.filter((answer) => answer.status === 429)
    for (const answer of limited) {
      assert.strictEqual(answer.code, "rate_limited")
      const seconds = Number(answer.retryAfter)
      assert.isTrue(Number.isInteger(seconds) && seconds >= 1 && seconds <= 60, `Retry-After ${answer.retryAfter}`)
    }
    for (const answer of answers) assert.deepStrictEqual(answer.rateLimitHeaders, [])
    return {
      allowed: answers.filter((answer) => answer.status === 200).length,
      limited: limited.length,
      fellBack: yield* fallbacksOf(servers.map((server) => server.baseUrl))
    }
  }).pipe(Effect.scoped, Effect.provide(ScratchDatabase.layer))

/** Exactly the budget passed, every check made by the shared store (else the message says how many were not). */
const exactlyTheBudget = (result: {
  readonly allowed: number
  readonly limited: number
  readonly fellBack: number
}) => {
  const cause = `${result.fellBack} checks fell back to a process's memory (margin_rate_budget_fallback_total)`
  assert.deepStrictEqual([result.allowed, result.limited], [60, 60], `exactly the budget passes; ${cause}`)
  assert.strictEqual(result.fellBack, 0, cause)
}

/** Redis behind a proxy that holds each of its answers `delayMillis`: slow, but up. */
const slowRedis = (delayMillis: number) =>
  Effect.gen(function* () {
    const url = new URL(redisUrl)
    const proxy = yield* TcpProxy.make({ host: url.hostname, port: Number(url.port || 6379) })
    return { url: `redis://127.0.0.1:${proxy.port}`, slowDown: proxy.slowDown(delayMillis) }
  })

describe("one rate budget over two REST server processes on one database", () => {
  it.live(
    "120 concurrent requests with one token: exactly 60 pass (budget in PostgreSQL)",
    () => Effect.map(burst({}), exactlyTheBudget),
    {
      timeout: 240_000
    }
  )

  it.live(
    "120 concurrent requests with one token: exactly 60 pass (budget in Redis, however loaded the machine)",
    () => Effect.map(burst({ REDIS_URL: redisUrl, RATE_LIMIT_REDIS_TIMEOUT: "30 seconds" }), exactlyTheBudget),
    { timeout: 240_000 }
  )

  it.live(
    "a Redis slower than its timeout: every check falls back, and each of the two processes admits its half: 60 pass",
    () =>
      Effect.gen(function* () {
        const redis = yield* slowRedis(1_000)
        const result = yield* burst(
          { REDIS_URL: redis.url, RATE_LIMIT_REDIS_TIMEOUT: "100 millis", RATE_LIMIT_PROCESSES: "2" },
          redis.slowDown
        )
        assert.deepStrictEqual([result.allowed, result.limited], [60, 60], "30 + 30: no process admits the whole limit")
        assert.strictEqual(result.fellBack, 120, "every check was answered from memory")
      }).pipe(Effect.scoped),
    { timeout: 240_000 }
  )
})
