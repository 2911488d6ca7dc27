import { BadRequest, type Issue, ValidationFailed } from "@margin/edge/wire"
import { Effect, SchemaIssue } from "effect"
import { type HttpApiError, HttpApiMiddleware } from "effect/http-api"
import { BadRequestError, ValidationFailedError } from "./ApiErrors.ts"

/**
 * Turns request decoding failures into the contract's errors: a body that is not JSON is 400
 * `bad_request`; a body or query that fails its schema is 422 `validation_error`, one issue per
 * field (the API parses with `errors: "all"`). A response that fails to encode stays a defect (500).
 */
export class RequestValidation extends HttpApiMiddleware.Service<RequestValidation>()("margin/http/RequestValidation", {
  error: [BadRequestError, ValidationFailedError]
}) {}

/** HttpApiBuilder reports a body that `JSON.parse` refused as this one issue; nothing else carries it. */
const invalidJsonMessage = "Expected a valid JSON body"

export const isInvalidJson = (error: HttpApiError.HttpApiSchemaError): boolean => {
  const issue = error.cause.issue
  return error.kind === "Payload" && issue._tag === "InvalidValue" && issue.annotations?.message === invalidJsonMessage
}

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

const pathText = (
  path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined,
  kind: string
): string => {
  const segments = (path ?? []).map((segment) => String(typeof segment === "object" ? segment.key : segment))
  return segments.length === 0 ? (kind === "Payload" ? "body" : kind.toLowerCase()) : segments.join(".")
}

/**
 * One issue per failing field, its first: `limit=abc` fails the number, the integer and the range
 * checks alike, and a client reads `issues` as the list of fields to fix.
 */
export const issuesOf = (error: HttpApiError.HttpApiSchemaError): ReadonlyArray<Issue> => {
  const byPath = new Map<string, Issue>()
  for (const issue of formatIssues(error.cause.issue).issues) {
    const path = pathText(issue.path, error.kind)
    if (!byPath.has(path)) byPath.set(path, { path, message: issue.message })
  }
  return [...byPath.values()]
}

export const layer = HttpApiMiddleware.layerSchemaErrorTransform(RequestValidation, (error) => {
  if (error.kind === "Body" || error.kind === "ResponseHeaders") return Effect.fail(error)
  if (isInvalidJson(error)) return Effect.fail(new BadRequest({ detail: "the body could not be parsed" }))
  return Effect.fail(new ValidationFailed({ issues: issuesOf(error) }))
})
