import { failureCodes, transportCodes } from "@margin/edge/wire"
import { Schema } from "effect"

/**
 * The error bodies the HTTP layer answers around the HttpApi (ResponseGuard, Utf8JsonBody,
 * the Node server), which no endpoint fails with: the OpenAPI document's components for them
 * (`Api`'s AdditionalSchemas; DocumentTransform.ts puts them on the operations). Same envelope
 * as every error: `{ code, message, request_id }`.
 */

const example = <C extends string>(code: C, message: string) => ({
  code,
  message,
  request_id: "e74e0bd4-7586-4152-88fd-87a1b6cf7975"
})

const envelope = <C extends Schema.Top>(
  identifier: string,
  code: C,
  description: string,
  examples: ReadonlyArray<{ readonly code: C["Type"]; readonly message: string; readonly request_id: string }>
) =>
  Schema.Struct({
    code,
    message: Schema.String,
    request_id: Schema.String.annotate({ description: "The request's id, as in the x-request-id response header." })
  }).annotate({ identifier, description, examples })

export const PayloadTooLargeError = envelope(
  "PayloadTooLargeError",
  Schema.Literal(transportCodes[413]),
  "The body is above MAX_BODY_BYTES (announced by Content-Length or streamed); the connection is closed.",
  [example(transportCodes[413], "The request body is too large.")]
)

export const UnsupportedMediaTypeError = envelope(
  "UnsupportedMediaTypeError",
  Schema.Literal(transportCodes[415]),
  "The body is not application/json, or declares a charset other than UTF-8.",
  [example(transportCodes[415], "Send the body as application/json.")]
)

export const InternalError = envelope(
  "InternalError",
  Schema.Literal("internal_error"),
  "A fault on our side: logged under the request id, never sent.",
  [example("internal_error", "Something went wrong on our side; it has been logged.")]
)

/** Every code the service answers, for the `default` response (405, 408, 431 and whatever else a client meets). */
const everyCode = [
  ...new Set([
    ...Object.values(failureCodes).map((entry) => entry.code),
    ...Object.values(transportCodes),
    "internal_error"
  ])
]

export const AnyError = envelope(
  "Error",
  Schema.Literals(everyCode),
  "Any error answer: the same envelope for every status, e.g. 405 method_not_allowed (with Allow), 408 request_timeout, 431 header_fields_too_large.",
  [example(transportCodes[405], "DELETE is not allowed on /api/v1/runs; use GET, POST, HEAD.")]
)

/** Everything `Api` registers as a component beside its endpoints' schemas. */
export const transportErrors = [PayloadTooLargeError, UnsupportedMediaTypeError, InternalError, AnyError] as const
