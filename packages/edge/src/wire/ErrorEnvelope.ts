import { Scope } from "@margin/core/access/Scope"
import type {
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
import { Schema } from "effect"
import type {
  BadRequest,
  InsufficientScope,
  RateLimited,
  TokenUnusable,
  Unauthorized,
  ValidationFailed,
  WorkspaceForbidden
} from "./EdgeErrors.ts"
import { Issue } from "./EdgeErrors.ts"

/**
 * The body of every error answer: `{ code, message }`, plus `required` (insufficient_scope)
 * or `issues` (validation_error). Never a stack trace, never internal detail. `request_id` is
 * added by the front door that answers (the id of the request, as in its `x-request-id` header).
 */
export const ErrorEnvelope = Schema.Struct({
  code: Schema.String,
  message: Schema.String,
  required: Schema.optionalKey(Scope),
  issues: Schema.optionalKey(Schema.Array(Issue)),
  request_id: Schema.optionalKey(Schema.String)
})
export type ErrorEnvelope = typeof ErrorEnvelope.Type

/** Every expected failure that can reach a caller: the use cases' and the front doors' own. */
export type ApiFailure =
  | ResourceNotFound
  | TransitionConflict
  | TierIneligible
  | NoCommerceIntegration
  | PlanLimitExceeded
  | EmailNotConfirmed
  | InvalidInput
  | RepositoryError
  | Unauthorized
  | RateLimited
  | WorkspaceForbidden
  | InsufficientScope
  | TokenUnusable
  | ForbiddenRole
  | BadRequest
  | ValidationFailed

export type ApiFailureTag = ApiFailure["_tag"]

/**
 * The one table from failure to HTTP status and machine-readable code. Adding an error to
 * `ApiFailure` without a row here does not compile.
 */
export const failureCodes = {
  BadRequest: { status: 400, code: "bad_request" },
  Unauthorized: { status: 401, code: "unauthorized" },
  PlanLimitExceeded: { status: 402, code: "plan_limit" },
  EmailNotConfirmed: { status: 402, code: "email_not_confirmed" },
  InsufficientScope: { status: 403, code: "insufficient_scope" },
  ForbiddenRole: { status: 403, code: "forbidden_role" },
  TokenUnusable: { status: 403, code: "token_unusable" },
  WorkspaceForbidden: { status: 403, code: "workspace_forbidden" },
  ResourceNotFound: { status: 404, code: "not_found" },
  TransitionConflict: { status: 409, code: "conflict" },
  TierIneligible: { status: 422, code: "tier_ineligible" },
  NoCommerceIntegration: { status: 422, code: "no_commerce_integration" },
  ValidationFailed: { status: 422, code: "validation_error" },
  InvalidInput: { status: 422, code: "validation_error" },
  RateLimited: { status: 429, code: "rate_limited" },
  RepositoryError: { status: 503, code: "service_unavailable" }
} as const satisfies { readonly [K in ApiFailureTag]: { readonly status: number; readonly code: string } }

/** Answers that come from the HTTP layer itself rather than from a failure value. */
export const transportCodes = {
  404: "not_found",
  405: "method_not_allowed",
  406: "not_acceptable",
  408: "request_timeout",
  413: "payload_too_large",
  415: "unsupported_media_type",
  431: "header_fields_too_large",
  500: "internal_error",
  503: "service_unavailable"
} as const

const unauthorizedMessages: Record<Unauthorized["reason"], string> = {
  missing: "Authentication required: send Authorization: Bearer <API token>.",
  malformed: "The Authorization header is not a bearer credential.",
  unknown: "The API token is not known.",
  revoked: "The API token has been revoked.",
  expired: "The API token has expired.",
  invalid_session: "The session is not valid.",
  session_not_allowed:
    "Session credentials are accepted only by approve, reject, undo and workspace status; use an API token.",
  oauth_not_allowed: "OAuth access tokens are for the MCP server (/mcp) only; use an API token.",
  oauth_token_invalid: "The OAuth access token is unknown, expired or revoked, or was issued for another resource."
}

const workspaceMessages: Record<WorkspaceForbidden["reason"], string> = {
  header_required: "You belong to several workspaces: name one with the x-workspace-id header.",
  not_a_member: "You have no access to that workspace.",
  token_bound_elsewhere: "This API token belongs to another workspace than the one named by x-workspace-id."
}

const messageOf = (failure: ApiFailure): string => {
  switch (failure._tag) {
    case "BadRequest":
      return `The request body is not valid JSON: ${failure.detail}`
    case "Unauthorized":
      return unauthorizedMessages[failure.reason]
    case "PlanLimitExceeded":
      return failure.limit === "runs_per_month"
        ? `Your plan allows ${failure.allowed} runs per month and ${failure.used} have been used.`
        : `Your plan allows ${failure.allowed} catalog items and the workspace holds ${failure.used}.`
    case "EmailNotConfirmed":
      return "Confirm your e-mail address first."
    case "InsufficientScope":
      return `This API token lacks the scope ${failure.required}.`
    case "ForbiddenRole":
      return "Approving, rejecting and undoing need a workspace role of approver, admin or owner."
    case "TokenUnusable":
      return "The user who issued this API token was deleted: issue a new token."
    case "WorkspaceForbidden":
      return workspaceMessages[failure.reason]
    case "ResourceNotFound":
      return `No ${failure.resource} ${failure.id} in this workspace.`
    case "TransitionConflict":
      return `Not allowed now: ${failure.reason}.`
    case "TierIneligible":
      return `Write-back to the store needs a Max or Enterprise plan; this workspace is on ${failure.plan}.`
    case "NoCommerceIntegration":
      return "Connect a commerce store to the workspace before approving."
    case "ValidationFailed":
      return "The request failed validation."
    case "InvalidInput":
      return failure.message
    case "RateLimited":
      return `Rate limit exceeded: retry in ${failure.retryAfterSeconds} seconds.`
    case "RepositoryError":
      return "The service is temporarily unavailable: retry shortly."
  }
}

/** The wire body of a failure. */
export const envelopeOf = (failure: ApiFailure): ErrorEnvelope => {
  const base = { code: failureCodes[failure._tag].code, message: messageOf(failure) }
  switch (failure._tag) {
    case "InsufficientScope":
      return { ...base, required: failure.required }
    case "ValidationFailed":
      return { ...base, issues: failure.issues }
    case "InvalidInput":
      return { ...base, issues: [{ path: failure.path, message: failure.message }] }
    default:
      return base
  }
}

/** Status, headers and body of a failure, for front doors that write raw HTTP (MCP, the router guard). */
export const failureResponse = (
  failure: ApiFailure
): { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: ErrorEnvelope } => ({
  status: failureCodes[failure._tag].status,
  headers: failure._tag === "RateLimited" ? { "retry-after": String(failure.retryAfterSeconds) } : {},
  body: envelopeOf(failure)
})
