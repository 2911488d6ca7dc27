import { BadRequest, type Issue, ValidationFailed } from "@margin/edge/wire"
import { Effect, Layer, Option, SchemaIssue } from "effect"
import { HttpMethod } from "effect/http"
import { HttpApiError } from "effect/http-api"
import type * as Types from "effect/Types"
import { RequestValidation } from "./RequestValidation.ts"
import { checkUtf8JsonBody } from "./Utf8JsonBody.ts"

/*
 * The server side of `RequestValidation`, apart from the middleware's tag so that the API
 * definition (`@margin/rest/api`) loads none of it.
 */

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

const transform = (error: HttpApiError.HttpApiSchemaError): Effect.Effect<never, BadRequest | ValidationFailed> => {
  // A response that fails to encode is a defect, as the endpoint's builder makes it.
  if (error.kind === "Body" || error.kind === "ResponseHeaders") return Effect.die(error)
  if (isInvalidJson(error)) return Effect.fail(new BadRequest({ detail: "the body could not be parsed" }))
  return Effect.fail(new ValidationFailed({ issues: issuesOf(error) }))
}

/**
 * Around each endpoint, inside authentication: an endpoint that takes a body first has it checked
 * as UTF-8 JSON (Utf8JsonBody: 415 for another charset, 400 for bytes that are not UTF-8 or a lone
 * surrogate), then decoding failures are turned into the contract's errors.
 */
export const layer = Layer.succeed(RequestValidation, (httpEffect, { endpoint }) => {
  const checked =
    endpoint.payload.size > 0 && HttpMethod.hasBody(endpoint.method)
      ? Effect.flatMap(checkUtf8JsonBody, (refused) =>
          Option.isSome(refused) ? Effect.succeed(refused.value) : httpEffect
        )
      : httpEffect
  return Effect.catch(
    checked,
    (error): Effect.Effect<never, Types.unhandled | BadRequest | ValidationFailed> =>
      HttpApiError.HttpApiSchemaError.is(error) ? transform(error) : Effect.fail(error)
  )
})
