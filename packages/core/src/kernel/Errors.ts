import { Schema } from "effect"

/**
 * Expected failures of the use cases. They carry no HTTP status: each front door
 * (REST, MCP, CLI) maps them, and the compiler makes every door handle a new one.
 */

/** No such resource in the caller's workspace (another workspace's resource is indistinguishable). */
export class ResourceNotFound extends Schema.TaggedError<ResourceNotFound>()("ResourceNotFound", {
  resource: Schema.String,
  id: Schema.String
}) {}

/** The command is not allowed from the resource's current state. */
export class TransitionConflict extends Schema.TaggedError<TransitionConflict>()("TransitionConflict", {
  resource: Schema.String,
  id: Schema.String,
  status: Schema.String,
  reason: Schema.String
}) {}

/**
 * Approve and reject need a workspace role of approver or above (`deciderRole`); the caller's role
 * is lower, or null when the caller is no longer a member.
 */
export class ForbiddenRole extends Schema.TaggedError<ForbiddenRole>()("ForbiddenRole", {
  role: Schema.NullOr(Schema.String)
}) {}

/** Write-back needs a plan with it (max, enterprise). */
export class TierIneligible extends Schema.TaggedError<TierIneligible>()("TierIneligible", {
  plan: Schema.String
}) {}

/** Approve needs a connected store. */
export class NoCommerceIntegration extends Schema.TaggedError<NoCommerceIntegration>()("NoCommerceIntegration", {}) {}

/** A plan cap refused the action. */
export class PlanLimitExceeded extends Schema.TaggedError<PlanLimitExceeded>()("PlanLimitExceeded", {
  limit: Schema.Literals(["runs_per_month", "catalog_items"]),
  allowed: Schema.Number,
  used: Schema.Number
}) {}

/** The acting user has not confirmed their e-mail address, where that matters. */
export class EmailNotConfirmed extends Schema.TaggedError<EmailNotConfirmed>()("EmailNotConfirmed", {}) {}

/** Input that passed the schema but breaks a domain rule (e.g. snooze_until in the past). */
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  path: Schema.String,
  message: Schema.String
}) {}

/** The system of record failed (connection lost, timeout). Infrastructure, but expected: callers may retry. */
export class RepositoryError extends Schema.TaggedError<RepositoryError>()("RepositoryError", {
  operation: Schema.String,
  message: Schema.String
}) {}

/** Why an infrastructure call failed, for a log line: its message, else its cause's message, else its tag. */
export const reasonOf = (error: {
  readonly message: string
  readonly _tag?: string
  readonly cause?: unknown
}): string => {
  if (error.message !== "") return error.message
  if (error.cause instanceof Error && error.cause.message !== "") return error.cause.message
  return error._tag ?? "unknown failure"
}

/** A deleted user cannot be given anything new (a membership, a token). */
export class UserDeleted extends Schema.TaggedError<UserDeleted>()("UserDeleted", {
  userId: Schema.String,
  deletedAt: Schema.Number
}) {}
