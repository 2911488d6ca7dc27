import { ErrorEnvelope, failureCodes, Issue, transportCodes } from "@margin/edge/wire"
import { Effect, Option, Schema } from "effect"
import type { HttpClientResponse } from "effect/http"
import { UnexpectedResponse } from "./ClientError.ts"

/**
 * The contract's errors as a client receives them: one `_tag` ("ApiError") and a `code` that
 * narrows the rest (`issues` with validation_error, `required` with insufficient_scope,
 * `retryAfter` with rate_limited and service_unavailable). The codes are the server's own table (`failureCodes`,
 * `transportCodes` of @margin/edge/wire), so a code the server answers is a code the client knows.
 */

export type ApiErrorCode =
  | (typeof failureCodes)[keyof typeof failureCodes]["code"]
  | (typeof transportCodes)[keyof typeof transportCodes]

export const apiErrorCodes: ReadonlyArray<ApiErrorCode> = [
  ...new Set<ApiErrorCode>([...Object.values(failureCodes).map((row) => row.code), ...Object.values(transportCodes)])
]

/** The codes whose answers carry a field of their own. */
type CodeWithFields = "validation_error" | "insufficient_scope" | "rate_limited" | "service_unavailable"
export type PlainApiErrorCode = Exclude<ApiErrorCode, CodeWithFields>

const isPlain = (code: ApiErrorCode): code is PlainApiErrorCode =>
  code !== "validation_error" &&
  code !== "insufficient_scope" &&
  code !== "rate_limited" &&
  code !== "service_unavailable"

const common = {
  /** The HTTP status of the answer. */
  status: Schema.Int,
  /** For people; may change. */
  message: Schema.String,
  /** The request's id (body and `x-request-id`): quote it when reporting a problem. */
  requestId: Schema.String
}

/** Every code without fields of its own: unauthorized, not_found, conflict, forbidden_role, ... */
export class ApiError extends Schema.TaggedError<ApiError>()("ApiError", {
  code: Schema.Literals(apiErrorCodes.filter(isPlain)),
  ...common
}) {}

/** 422 validation_error: one issue per failing field (`path`: `limit`, `subset_tags.1`, `body`). */
export class ValidationError extends Schema.TaggedError<ValidationError>()("ApiError", {
  code: Schema.Literal("validation_error"),
  ...common,
  issues: Schema.Array(Issue)
}) {}

/** 403 insufficient_scope: `required` names the scope the token lacks. */
export class InsufficientScopeError extends Schema.TaggedError<InsufficientScopeError>()("ApiError", {
  code: Schema.Literal("insufficient_scope"),
  ...common,
  required: Schema.String
}) {}

/** 429 rate_limited: `retryAfter` is the Retry-After header, whole seconds until the budget's window resets. */
export class RateLimitedError extends Schema.TaggedError<RateLimitedError>()("ApiError", {
  code: Schema.Literal("rate_limited"),
  ...common,
  retryAfter: Schema.Int
}) {}

/** 503 service_unavailable (the database did not answer, or the service is starting): retry after `retryAfter` seconds. */
export class ServiceUnavailableError extends Schema.TaggedError<ServiceUnavailableError>()("ApiError", {
  code: Schema.Literal("service_unavailable"),
  ...common,
  retryAfter: Schema.Int
}) {}

/** An error answer of the contract, narrowed by `code`. */
export type AnyApiError =
  | ApiError
  | ValidationError
  | InsufficientScopeError
  | RateLimitedError
  | ServiceUnavailableError

export const isApiError = (u: unknown): u is AnyApiError =>
  u instanceof ApiError ||
  u instanceof ValidationError ||
  u instanceof InsufficientScopeError ||
  u instanceof RateLimitedError ||
  u instanceof ServiceUnavailableError

const isCode = (code: string): code is ApiErrorCode => apiErrorCodes.some((known) => known === code)

/** The server's envelope, with `required` open: v1 may add scopes, and a client ignores what it does not know. */
const decodeEnvelope = Schema.decodeUnknownOption(
  Schema.fromJsonString(Schema.Struct({ ...ErrorEnvelope.fields, required: Schema.optionalKey(Schema.String) }))
)

const wholeSeconds = /^[0-9]+$/

/** The error an answer with a status of 300 or more stands for; a body outside the contract is `UnexpectedResponse`. */
export const fromResponse = (
  response: HttpClientResponse.HttpClientResponse
): Effect.Effect<never, AnyApiError | UnexpectedResponse> =>
  Effect.flatMap(
    Effect.orElseSucceed(response.text, () => ""),
    (text): Effect.Effect<never, AnyApiError | UnexpectedResponse> => {
      const status = response.status
      const unexpected = (why: string) =>
        Effect.fail(new UnexpectedResponse({ status, message: `${why}: ${text.slice(0, 200)}` }))
      const envelope = Option.getOrUndefined(decodeEnvelope(text))
      if (envelope === undefined) return unexpected(`HTTP ${status} without the error envelope`)
      const code = envelope.code
      const requestId = envelope.request_id ?? response.headers["x-request-id"]
      if (!isCode(code) || requestId === undefined) return unexpected(`HTTP ${status} with an unknown error`)
      const fields = { status, message: envelope.message, requestId }
      if (isPlain(code)) return Effect.fail(new ApiError({ code, ...fields }))
      switch (code) {
        case "validation_error":
          return Effect.fail(new ValidationError({ code, ...fields, issues: envelope.issues ?? [] }))
        case "insufficient_scope":
          return Effect.fail(new InsufficientScopeError({ code, ...fields, required: envelope.required ?? "" }))
        case "rate_limited":
        case "service_unavailable": {
          const retryAfter = response.headers["retry-after"] ?? ""
          if (!wholeSeconds.test(retryAfter)) return unexpected(`HTTP ${status} without a Retry-After in seconds`)
          const after = { ...fields, retryAfter: Number(retryAfter) }
          return Effect.fail(
            code === "rate_limited"
              ? new RateLimitedError({ code, ...after })
              : new ServiceUnavailableError({ code, ...after })
          )
        }
      }
    }
  )
