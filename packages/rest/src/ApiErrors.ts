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
} from "@margin/core/Errors"
import { Scope } from "@margin/core/Scope"
import {
  type ApiFailure,
  type ApiFailureTag,
  BadRequest,
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

const bodyFields = (tag: ApiFailureTag) => {
  // request_id is added to every error body by the response guard; declared here for the OpenAPI document.
  const base = {
    code: Schema.Literal(failureCodes[tag].code),
    message: Schema.String,
    request_id: Schema.optionalKey(Schema.String)
  }
  switch (tag) {
    case "InsufficientScope":
      return { ...base, required: Scope }
    case "ValidationFailed":
    case "InvalidInput":
      return { ...base, issues: Schema.Array(Issue) }
    default:
      return base
  }
}

const bodyOf = (tag: ApiFailureTag) =>
  Schema.Struct(bodyFields(tag))
    .pipe(HttpApiSchema.status(failureCodes[tag].status))
    .annotate({ identifier: `${tag}Error` })

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
      body: Schema.Struct({ code: Schema.Literal("rate_limited"), message: Schema.String }).pipe(
        HttpApiSchema.status(failureCodes.RateLimited.status)
      ),
      headers: { "retry-after": Schema.String.pipe(Schema.check(Schema.isPattern(/^[0-9]+$/))) }
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
