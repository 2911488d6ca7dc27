import { assert, layer } from "@effect/vitest"
import { aWorkspaceWithOwner, issueToken, member, session } from "@margin/edge/testing/World"
import { call, expectError, type Reply, layer as testServer } from "@margin/runtime/testing/TestServer"
import { Clock, Effect } from "effect"
import { operations, requestOptions } from "./Operations.ts"

/** docs/contract.md, "The rate budget", with a budget of 5 per minute so that the tests are quick. */

const limit = 5

/** Budgets are fixed minutes: start a burst well inside one, so that no reset happens mid-test. */
const awayFromWindowEdge = Effect.gen(function* () {
  const now = yield* Clock.currentTimeMillis
  const left = 60_000 - (now % 60_000)
  if (left < 5_000) yield* Effect.sleep(left + 50)
})

const expectLimited = (reply: Reply) => {
  expectError(reply, 429, "rate_limited")
  const retryAfter = reply.headers["retry-after"] ?? ""
  assert.match(retryAfter, /^\d+$/, "Retry-After is whole seconds")
  assert.isTrue(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, retryAfter)
}

const noRateLimitHeaders = (reply: Reply) =>
  assert.deepStrictEqual(
    Object.keys(reply.headers).filter((name) => name.toLowerCase().startsWith("x-ratelimit")),
    [],
    "no X-RateLimit-* headers"
  )

layer(testServer({ rateLimit: limit }), { excludeTestServices: true, timeout: "30 seconds" })("rate limits", (it) => {
  it.effect("a token gets `limit` requests per minute, then 429 rate_limited with Retry-After", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      yield* awayFromWindowEdge
      for (let n = 0; n < limit; n++) {
        const reply = yield* call("GET", "/api/v1/runs", { token: owner.token })
        assert.strictEqual(reply.status, 200)
        noRateLimitHeaders(reply)
      }
      const limited = yield* call("GET", "/api/v1/runs", { token: owner.token })
      expectLimited(limited)
      noRateLimitHeaders(limited)
      expectLimited(yield* call("POST", "/api/v1/runs", { token: owner.token }))
    })
  )

  it.effect("every authenticated request counts, whatever its outcome", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const { secret } = yield* issueToken(workspace, owner.user, { scopes: ["runs:read"] })
      yield* awayFromWindowEdge
      const outcomes = [
        yield* call("GET", "/api/v1/runs", { token: secret }),
        yield* call("GET", "/api/v1/runs/run_missing", { token: secret }),
        yield* call("GET", "/api/v1/alerts", { token: secret }),
        yield* call("GET", "/api/v1/runs?limit=0", { token: secret }),
        yield* call("POST", "/api/v1/recommendations/rec_missing/reject", { token: secret, body: "{" })
      ]
      assert.deepStrictEqual(
        outcomes.map((reply) => reply.status),
        [200, 404, 403, 422, 403]
      )
      expectLimited(yield* call("GET", "/api/v1/runs", { token: secret }))
    })
  )

  it.effect("the budget comes before the workspace and scope checks", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const other = yield* aWorkspaceWithOwner()
      const { secret } = yield* issueToken(workspace, owner.user, { scopes: [] })
      yield* awayFromWindowEdge
      for (let n = 0; n < limit; n++)
        expectError(yield* call("GET", "/api/v1/runs", { token: secret }), 403, "insufficient_scope")
      expectLimited(yield* call("GET", "/api/v1/runs", { token: secret }))
      expectLimited(
        yield* call("GET", "/api/v1/runs", { token: secret, headers: { "x-workspace-id": other.workspace.id } })
      )
    })
  )

  it.effect("requests that do not authenticate are not counted", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      yield* awayFromWindowEdge
      for (let n = 0; n < 3 * limit; n++) expectError(yield* call("GET", "/api/v1/runs"), 401, "unauthorized")
      const now = yield* Clock.currentTimeMillis
      const expired = yield* issueToken(workspace, owner.user, { overrides: { expiresAt: now - 1 } })
      for (let n = 0; n < 3 * limit; n++) {
        expectError(yield* call("GET", "/api/v1/runs", { token: expired.secret }), 401, "unauthorized")
      }
      for (let n = 0; n < limit; n++)
        assert.strictEqual((yield* call("GET", "/api/v1/runs", { token: owner.token })).status, 200)
    })
  )

  it.effect("budgets are per token and per session user, independent of each other", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const second = yield* issueToken(workspace, owner.user)
      const approver = yield* member(workspace, "approver")
      const jwt = yield* session(approver.user)
      yield* awayFromWindowEdge
      for (let n = 0; n < limit; n++) yield* call("GET", "/api/v1/runs", { token: owner.token })
      expectLimited(yield* call("GET", "/api/v1/runs", { token: owner.token }))
      assert.strictEqual((yield* call("GET", "/api/v1/runs", { token: second.secret })).status, 200, "another token")

      for (let n = 0; n < limit; n++) {
        assert.strictEqual((yield* call("GET", "/api/v1/workspace/status", { token: jwt })).status, 200)
      }
      expectLimited(yield* call("GET", "/api/v1/workspace/status", { token: jwt }))
      const laterSession = yield* session(approver.user)
      expectLimited(yield* call("GET", "/api/v1/workspace/status", { token: laterSession }))
      assert.strictEqual(
        (yield* call("GET", "/api/v1/workspace/status", { token: approver.token })).status,
        200,
        "the user's token has its own budget"
      )
    })
  )

  it.effect("one budget per token across every route", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      yield* awayFromWindowEdge
      const send = (operation: (typeof operations)[number]) =>
        call(operation.method, operation.path, requestOptions(operation, { token: owner.token }))
      const replies = yield* Effect.forEach(operations.slice(0, limit), send)
      assert.isTrue(replies.every((reply) => reply.status !== 429))
      for (const operation of operations.slice(limit)) expectLimited(yield* send(operation))
    })
  )
})
