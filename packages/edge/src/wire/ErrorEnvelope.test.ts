import { assert, describe, it } from "@effect/vitest"
import {
  EmailNotConfirmed,
  ForbiddenRole,
  InvalidInput,
  NoCommerceIntegration,
  PlanLimitExceeded,
  RepositoryError,
  ResourceNotFound,
  TierIneligible,
  TransitionConflict
} from "@margin/core/kernel/Errors"
import {
  BadRequest,
  InsufficientScope,
  RateLimited,
  TokenUnusable,
  Unauthorized,
  ValidationFailed,
  WorkspaceForbidden
} from "./EdgeErrors.ts"
import { type ApiFailure, envelopeOf, failureCodes, failureResponse } from "./ErrorEnvelope.ts"

/** One of every failure, with the status and code the contract gives it (docs/contract.md, "Errors"). */
const table: ReadonlyArray<readonly [ApiFailure, number, string]> = [
  [new BadRequest({ detail: "x" }), 400, "bad_request"],
  [new Unauthorized({ reason: "expired" }), 401, "unauthorized"],
  [new PlanLimitExceeded({ limit: "runs_per_month", allowed: 10, used: 10 }), 402, "plan_limit"],
  [new EmailNotConfirmed(), 402, "email_not_confirmed"],
  [new InsufficientScope({ required: "runs:trigger" }), 403, "insufficient_scope"],
  [new ForbiddenRole({ role: "analyst" }), 403, "forbidden_role"],
  [new TokenUnusable(), 403, "token_unusable"],
  [new WorkspaceForbidden({ reason: "header_required" }), 403, "workspace_forbidden"],
  [new ResourceNotFound({ resource: "recommendation", id: "rec_1" }), 404, "not_found"],
  [
    new TransitionConflict({ resource: "recommendation", id: "rec_1", status: "approved", reason: "approved already" }),
    409,
    "conflict"
  ],
  [new TierIneligible({ plan: "pro" }), 422, "tier_ineligible"],
  [new NoCommerceIntegration(), 422, "no_commerce_integration"],
  [new ValidationFailed({ issues: [{ path: "reason", message: "Expected string" }] }), 422, "validation_error"],
  [new InvalidInput({ path: "snooze_until", message: "must be in the future" }), 422, "validation_error"],
  [new RateLimited({ retryAfterSeconds: 17 }), 429, "rate_limited"],
  [new RepositoryError({ operation: "x", message: "secret detail" }), 503, "service_unavailable"]
]

describe("ErrorEnvelope", () => {
  it("maps every failure to the status and code of the contract, with a message", () => {
    assert.strictEqual(table.length, Object.keys(failureCodes).length, "the table covers every failure")
    for (const [failure, status, code] of table) {
      const response = failureResponse(failure)
      assert.strictEqual(response.status, status, failure._tag)
      assert.strictEqual(response.body.code, code, failure._tag)
      assert.isAbove(response.body.message.length, 0)
    }
  })

  it("adds `required` to insufficient_scope and `issues` to validation_error, and nothing else", () => {
    assert.deepStrictEqual(envelopeOf(new InsufficientScope({ required: "runs:trigger" })), {
      code: "insufficient_scope",
      message: "This API token lacks the scope runs:trigger.",
      required: "runs:trigger"
    })
    assert.deepStrictEqual(envelopeOf(new InvalidInput({ path: "snooze_until", message: "must be in the future" })), {
      code: "validation_error",
      message: "must be in the future",
      issues: [{ path: "snooze_until", message: "must be in the future" }]
    })
    for (const [failure] of table) {
      const keys = Object.keys(envelopeOf(failure)).sort()
      assert.includeMembers(["code", "issues", "message", "required"], keys)
    }
  })

  it("429 carries Retry-After; no answer carries internal detail", () => {
    assert.deepStrictEqual(failureResponse(new RateLimited({ retryAfterSeconds: 17 })).headers, { "retry-after": "17" })
    assert.notInclude(
      JSON.stringify(envelopeOf(new RepositoryError({ operation: "x", message: "secret detail" }))),
      "secret"
    )
  })
})
