import { assert, describe, it } from "@effect/vitest"
import { seedApprovalWorkspace } from "@margin/runtime/testing/ApprovalWorld"
import { startRestServer } from "@margin/runtime/testing/ChildProcesses"
import * as ScratchDatabase from "@margin/runtime/testing/ScratchDatabase"
import { Array as Arr, Clock, Effect } from "effect"

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

const burst = (shared: Readonly<Record<string, string>>) =>
  Effect.gen(function* () {
    const database = yield* ScratchDatabase.ScratchDatabase
    const { token } = yield* seedApprovalWorkspace()
    const env = { DATABASE_URL: database.url, RATE_LIMIT_PER_MINUTE: "60", ...shared }
    const servers = yield* Effect.all([startRestServer("budget-a", env), startRestServer("budget-b", env)], {
      concurrency: "unbounded"
    })
    yield* earlyInAWindow
    const answers = yield* Effect.forEach(
      Arr.makeBy(120, (index) => servers[index % 2]?.baseUrl ?? ""),
      (baseUrl) => getStatus(baseUrl, token),
      { concurrency: "unbounded" }
    )
    const allowed = answers.filter((answer) => answer.status === 200)
    const limited = answers.filter((answer) => answer.status === 429)
    assert.strictEqual(allowed.length, 60, "exactly the budget passes, across both processes")
    assert.strictEqual(limited.length, 60)
    for (const answer of limited) {
      assert.strictEqual(answer.code, "rate_limited")
      const seconds = Number(answer.retryAfter)
      assert.isTrue(Number.isInteger(seconds) && seconds >= 1 && seconds <= 60, `Retry-After ${answer.retryAfter}`)
    }
    for (const answer of answers) assert.deepStrictEqual(answer.rateLimitHeaders, [])
  }).pipe(Effect.scoped, Effect.provide(ScratchDatabase.layer))

describe("one rate budget over two REST server processes on one database", () => {
  it.live("120 concurrent requests with one token: exactly 60 pass (budget in PostgreSQL)", () => burst({}), {
    timeout: 240_000
  })
  it.live(
    "120 concurrent requests with one token: exactly 60 pass (budget in Redis)",
    () => burst({ REDIS_URL: redisUrl }),
    {
      timeout: 240_000
    }
  )
})
