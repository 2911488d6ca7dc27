import { assert } from "@effect/vitest"
import type { ClientConfig, MarginClientShape, MarginError, PromiseClient } from "@margin/client"
import { UserRepository } from "@margin/core/access/UserRepository"
import { MemoryStore } from "@margin/core/memory/MemoryStore"
import {
  aWorkspaceWithOwner,
  issueToken,
  member,
  seedAlert,
  seedRecommendation,
  seedRun
} from "@margin/edge/testing/World"
import { baseUrl } from "@margin/runtime/testing/TestServer"
import { Clock, Effect } from "effect"

/**
 * One request for each error code a client can meet on /api/v1, seeded on the test server, with
 * the same call written for both faces of @margin/client.
 */
export interface ErrorScenario {
  readonly code: string
  readonly status: number
  readonly config: ClientConfig
  readonly effect: (client: MarginClientShape) => Effect.Effect<unknown, MarginError>
  readonly promise: (client: PromiseClient) => Promise<unknown>
}

/** What a test reads of an error: each field only where its `code` (or `_tag`) says it is there. */
export const describeError = (error: MarginError) => {
  switch (error._tag) {
    case "ApiError":
      switch (error.code) {
        case "validation_error":
          return { code: error.code, status: error.status, requestId: error.requestId, detail: error.issues }
        case "insufficient_scope":
          return { code: error.code, status: error.status, requestId: error.requestId, detail: error.required }
        case "rate_limited":
        case "service_unavailable":
          return { code: error.code, status: error.status, requestId: error.requestId, detail: error.retryAfter }
        default:
          return { code: error.code, status: error.status, requestId: error.requestId, detail: error.message }
      }
    case "UnexpectedResponse":
      return { code: error._tag, status: error.status, requestId: "", detail: error.message }
    case "TransportError":
    case "TimeoutError":
    case "InvalidRequest":
      return { code: error._tag, status: null, requestId: "", detail: error.message }
  }
}

/**
 * Every code of the contract's error table that a request of the client can meet, but
 * rate_limited (tested on a server with a small budget), bad_request (the client sends only JSON)
 * and service_unavailable (the test server's memory database always answers).
 */
export const scenarioCodes = [
  "validation_error",
  "unauthorized",
  "workspace_forbidden",
  "insufficient_scope",
  "token_unusable",
  "forbidden_role",
  "not_found",
  "conflict",
  "tier_ineligible",
  "no_commerce_integration",
  "plan_limit",
  "email_not_confirmed"
]

export const errorScenarios = Effect.gen(function* () {
  const base = yield* baseUrl
  const config = (token: string, workspaceId?: string): ClientConfig =>
    workspaceId === undefined ? { baseUrl: base, token } : { baseUrl: base, token, workspaceId }
  const now = yield* Clock.currentTimeMillis

  const { workspace, owner } = yield* aWorkspaceWithOwner()
  const other = yield* aWorkspaceWithOwner()
  const pending = yield* seedRecommendation(workspace, { status: "pending_approval" })
  const fresh = yield* seedRecommendation(workspace)
  const alert = yield* seedAlert(workspace)
  const readOnly = yield* issueToken(workspace, owner.user, { scopes: ["runs:read"] })
  const viewer = yield* member(workspace, "viewer")
  const departed = yield* member(workspace, "admin")
  yield* UserRepository.use((users) => users.markDeleted(departed.user.id, now))
  const free = yield* aWorkspaceWithOwner({ plan: "free" })
  for (let n = 0; n < 10; n++) yield* seedRun(free.workspace, { createdAt: now })
  const unconnected = yield* aWorkspaceWithOwner({ store: false })
  const unconfirmed = yield* member(other.workspace, "analyst", { emailConfirmed: false })
  const past = now - 60_000

  const scenarios: ReadonlyArray<ErrorScenario> = [
    {
      code: "validation_error",
      status: 422,
      config: config(owner.token),
      effect: (client) => client.snoozeAlert(alert.id, { snooze_until: past, reason: "later" }),
      promise: (client) => client.snoozeAlert(alert.id, { snooze_until: past, reason: "later" })
    },
    {
      code: "unauthorized",
      status: 401,
      config: config("pck_not_a_token"),
      effect: (client) => client.listRuns(),
      promise: (client) => client.listRuns()
    },
    {
      code: "workspace_forbidden",
      status: 403,
      config: config(owner.token, other.workspace.id),
      effect: (client) => client.listRuns(),
      promise: (client) => client.listRuns()
    },
    {
      code: "insufficient_scope",
      status: 403,
      config: config(readOnly.secret),
      effect: (client) => client.listRecommendations(),
      promise: (client) => client.listRecommendations()
    },
    {
      code: "token_unusable",
      status: 403,
      config: config(departed.token),
      effect: (client) => client.acceptRecommendation(fresh.id),
      promise: (client) => client.acceptRecommendation(fresh.id)
    },
    {
      code: "forbidden_role",
      status: 403,
      config: config(viewer.token),
      effect: (client) => client.approveRecommendation(pending.id),
      promise: (client) => client.approveRecommendation(pending.id)
    },
    {
      code: "not_found",
      status: 404,
      config: config(owner.token),
      effect: (client) => client.getRecommendation("rec_missing"),
      promise: (client) => client.getRecommendation("rec_missing")
    },
    {
      code: "conflict",
      status: 409,
      config: config(owner.token),
      effect: (client) => client.approveRecommendation(fresh.id),
      promise: (client) => client.approveRecommendation(fresh.id)
    },
    {
      code: "tier_ineligible",
      status: 422,
      config: config(free.owner.token),
      effect: (client) => client.approveRecommendation("rec_missing"),
      promise: (client) => client.approveRecommendation("rec_missing")
    },
    {
      code: "no_commerce_integration",
      status: 422,
      config: config(unconnected.owner.token),
      effect: (client) => client.approveRecommendation("rec_missing"),
      promise: (client) => client.approveRecommendation("rec_missing")
    },
    {
      code: "plan_limit",
      status: 402,
      config: config(free.owner.token),
      effect: (client) => client.triggerRun(),
      promise: (client) => client.triggerRun()
    },
    {
      code: "email_not_confirmed",
      status: 402,
      config: config(unconfirmed.token),
      effect: (client) => client.triggerRun(),
      promise: (client) => client.triggerRun()
    }
  ]
  return scenarios
})

/** The error a scenario is owed: its code and status, and the request's id. */
export const expectScenarioError = (error: ReturnType<typeof describeError>, scenario: ErrorScenario) => {
  assert.strictEqual(error.code, scenario.code, JSON.stringify(error))
  assert.strictEqual(error.status, scenario.status)
  assert.match(error.requestId, /^[0-9a-f-]{36}$/)
}

type Approved = Effect.Success<ReturnType<MarginClientShape["approveRecommendation"]>>

/** Two approves of one recommendation: the first took effect and wrote the price back, once; the repeat is idempotent. */
export const expectApprovedOnce = (recommendationId: string, [first, again]: ReadonlyArray<Approved>) =>
  Effect.gen(function* () {
    if (first === undefined || first.idempotent) return assert.fail("the first approve took effect")
    assert.strictEqual(first.recommendation.status, "applied")
    assert.deepStrictEqual(first.write_back, { status: "applied", attempts: 1 })
    assert.deepStrictEqual(again, { ok: true, idempotent: true })
    const writes = yield* MemoryStore.use((store) => store.writes)
    assert.strictEqual(writes.filter((write) => write.idempotencyKey === recommendationId).length, 1)
  })
