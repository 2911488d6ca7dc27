import { Scope } from "@margin/core/access/Scope"
import { Schema } from "effect"

/**
 * Failures raised by the front doors themselves (credentials, budget, workspace, scope,
 * request parsing). Like core errors they carry no HTTP status: `ErrorEnvelope` maps both.
 */

/** Why a credential did not authenticate; every reason answers 401 alike. */
export const UnauthorizedReason = Schema.Literals([
  "missing",
  "malformed",
  "unknown",
  "revoked",
  "expired",
  "invalid_session",
  "session_not_allowed",
  "oauth_not_allowed",
  "oauth_token_invalid"
])
export type UnauthorizedReason = typeof UnauthorizedReason.Type

export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", {
  reason: UnauthorizedReason
}) {}

/** The caller's request budget for the current window is spent. */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  /** Whole seconds until the window resets, 1..60. */
  retryAfterSeconds: Schema.Int
}) {}

export const WorkspaceForbiddenReason = Schema.Literals(["header_required", "not_a_member", "token_bound_elsewhere"])
export type WorkspaceForbiddenReason = typeof WorkspaceForbiddenReason.Type

/** The workspace could not be resolved for the caller, or is not theirs. */
export class WorkspaceForbidden extends Schema.TaggedError<WorkspaceForbidden>()("WorkspaceForbidden", {
  reason: WorkspaceForbiddenReason
}) {}

export class InsufficientScope extends Schema.TaggedError<InsufficientScope>()("InsufficientScope", {
  required: Scope
}) {}

/** The user who issued the token was deleted: the token may still read, never mutate. */
export class TokenUnusable extends Schema.TaggedError<TokenUnusable>()("TokenUnusable", {}) {}

/** The request body is not JSON. */
export class BadRequest extends Schema.TaggedError<BadRequest>()("BadRequest", {
  detail: Schema.String
}) {}

export const Issue = Schema.Struct({ path: Schema.String, message: Schema.String })
export type Issue = typeof Issue.Type

/** The body or a query parameter failed its schema; one issue per failing field. */
export class ValidationFailed extends Schema.TaggedError<ValidationFailed>()("ValidationFailed", {
  issues: Schema.Array(Issue)
}) {}
