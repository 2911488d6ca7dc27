import { Scope } from "@margin/core/access/Scope"
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
  type ApiFailure,
  type ApiFailureTag,
  BadRequest,
  type ErrorEnvelope,
  envelopeOf,
  failureCodes,
  InsufficientScope,
  Issue,
  logIfUnavailable,
  RateLimited,
  TokenUnusable,
  Unauthorized,
  ValidationFailed,
  WorkspaceForbidden
} from "@margin/edge/wire"
import { Effect, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { HttpApiSchema } from "effect/http-api"

/**
 * HttpApi schemas for every failure: the type side is the failure class itself (so handlers
 * return core errors unmapped), the wire side is the envelope `{ code, message, ... }` with the
 * status of `failureCodes`. Encoding only: the server never reads its own errors back.
 */

/** Every error body carries it: the front door adds it after encoding (RequestId.ts, withRequestId). */
const RequestIdField = Schema.String.annotate({
  description: "The request's id, as in the x-request-id response header: quote it when reporting a problem."
})

const exampleRequestId = "4b1f0c1e-6c55-4a49-9d53-1f0f3f3c9a11"

/** One failure of each kind, whose envelope is the example of its body in the OpenAPI document. */
const sampleFailures: { readonly [K in ApiFailureTag]: Extract<ApiFailure, { readonly _tag: K }> } = {
  BadRequest: new BadRequest({ detail: "the body could not be parsed" }),
  Unauthorized: new Unauthorized({ reason: "missing" }),
  PlanLimitExceeded: new PlanLimitExceeded({ limit: "runs_per_month", allowed: 10, used: 10 }),
  EmailNotConfirmed: new EmailNotConfirmed({}),
  InsufficientScope: new InsufficientScope({ required: "runs:trigger" }),
  ForbiddenRole: new ForbiddenRole({ role: "viewer" }),
  TokenUnusable: new TokenUnusable({}),
  WorkspaceForbidden: new WorkspaceForbidden({ reason: "header_required" }),
  ResourceNotFound: new ResourceNotFound({ resource: "recommendation", id: "rec_01m812xn02rynaz2v6w2yp0zzz" }),
  TransitionConflict: new TransitionConflict({
    resource: "recommendation",
    id: "rec_01m812xn02rynaz2v6w2yp0gw4",
    status: "dismissed",
    reason: "accept is allowed only from new; the recommendation is dismissed"
  }),
  TierIneligible: new TierIneligible({ plan: "free" }),
  NoCommerceIntegration: new NoCommerceIntegration({}),
  ValidationFailed: new ValidationFailed({
    issues: [{ path: "limit", message: "Expected a value between 1 and 200" }]
  }),
  InvalidInput: new InvalidInput({ path: "snooze_until", message: "snooze_until must be in the future" }),
  RateLimited: new RateLimited({ retryAfterSeconds: 43 }),
  RepositoryError: new RepositoryError({ operation: "listRuns", message: "connection refused" })
}

/** The body a caller gets for `tag`, as the document's example. */
const exampleBodyOf = (tag: ApiFailureTag): ErrorEnvelope => ({
  ...envelopeOf(sampleFailures[tag]),
  request_id: exampleRequestId
})

const bodyFields = (tag: ApiFailureTag) => {
  const base = { code: Schema.Literal(failureCodes[tag].code), message: Schema.String }
  // Last, where the front door puts it. Optional here: encoding checks the body before it is added
  // (the document requires it: DocumentTransform.ts).
  const requestId = { request_id: Schema.optionalKey(RequestIdField) }
  switch (tag) {
    case "InsufficientScope":
      return { ...base, required: Scope, ...requestId }
    case "ValidationFailed":
    case "InvalidInput":
      return { ...base, issues: Schema.Array(Issue), ...requestId }
    default:
      return { ...base, ...requestId }
  }
}

const bodyOf = (tag: ApiFailureTag) => {
  const body = Schema.Struct(bodyFields(tag))
  // Decoding types the example (and fails at load if the envelope ever left its own schema).
  const example = Schema.decodeUnknownSync(body)(exampleBodyOf(tag))
  return body.pipe(HttpApiSchema.status(failureCodes[tag].status)).annotate({
    identifier: `${tag}Error`,
    examples: [example]
  })
}

const wire = <S extends Schema.Top & { readonly Type: ApiFailure }>(self: S, tag: S["Type"]["_tag"]) => {
  const body = bodyOf(tag)
  const checkBody = Schema.decodeUnknownEffect(body)
  return body.pipe(
    Schema.decodeTo(
      Schema.toType(self),
      SchemaTransformation.transformEffect({
        decode: () => Effect.fail(new SchemaIssue.Forbidden({ message: `the server does not decode ${tag}` })),
        // Encoding runs in the request's fiber: its log line carries the request's id and caller.
        encode: (failure: S["Type"]) =>
          Effect.andThen(
            logIfUnavailable(failure),
            Effect.mapError(checkBody(envelopeOf(failure)), (error) => error.issue)
          )
      })
    ),
    HttpApiSchema.status(failureCodes[tag].status)
  )
}

export const ResourceNotFoundError = wire(ResourceNotFound, "ResourceNotFound")
export const TransitionConflictError = wire(TransitionConflict, "TransitionConflict")
export const TierIneligibleError = wire(TierIneligible, "TierIneligible")
export const NoCommerceIntegrationError = wire(NoCommerceIntegration, "NoCommerceIntegration")
export const PlanLimitExceededError = wire(PlanLimitExceeded, "PlanLimitExceeded")
export const EmailNotConfirmedError = wire(EmailNotConfirmed, "EmailNotConfirmed")
export const InvalidInputError = wire(InvalidInput, "InvalidInput")
export const RepositoryErrorError = wire(RepositoryError, "RepositoryError")
export const UnauthorizedError = wire(Unauthorized, "Unauthorized")
export const WorkspaceForbiddenError = wire(WorkspaceForbidden, "WorkspaceForbidden")
export const InsufficientScopeError = wire(InsufficientScope, "InsufficientScope")
export const TokenUnusableError = wire(TokenUnusable, "TokenUnusable")
export const ForbiddenRoleError = wire(ForbiddenRole, "ForbiddenRole")
export const BadRequestError = wire(BadRequest, "BadRequest")
export const ValidationFailedError = wire(ValidationFailed, "ValidationFailed")

/** 429 also carries `Retry-After`, in whole seconds. */
export const RateLimitedError = RateLimited.pipe(
  HttpApiSchema.encodeToWithHeaders(
    {
      body: bodyOf("RateLimited"),
      headers: {
        "retry-after": Schema.String.pipe(Schema.check(Schema.isPattern(/^[0-9]+$/))).annotate({
          description: "Whole seconds, 1 to 60, until the budget's window resets."
        })
      }
    },
    {
      decode: ({ headers }) => new RateLimited({ retryAfterSeconds: Number(headers["retry-after"]) }),
      encode: (failure) => ({
        body: { code: "rate_limited" as const, message: envelopeOf(failure).message },
        headers: { "retry-after": String(failure.retryAfterSeconds) }
      })
    }
  )
)
