import { randomUUID } from "node:crypto"
import { Context, Option, Schema } from "effect"
import { HttpBody, HttpServerResponse } from "effect/http"
import { requestIdHeader } from "../wire/RequestIdHeader.ts"

export { requestIdHeader }

// A caller's id is kept when it is short and printable, so it can go into logs and headers as is.
const sane = /^[A-Za-z0-9._:@/+=-]{1,128}$/

/** The id of a request: the caller's `x-request-id` when sane, otherwise a fresh UUID. */
export const requestIdOf = (incoming: string | undefined): string =>
  incoming !== undefined && sane.test(incoming) ? incoming : randomUUID()

/**
 * The id of the request being answered, set by the front door that gave it: for what answers
 * errors below it in a body of its own (an MCP tool's error result). Undefined outside a request.
 */
export const CurrentRequestId = Context.Reference<string | undefined>("margin/edge/CurrentRequestId", {
  defaultValue: () => undefined
})

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

// The body was encoded by another layer; one that is not a JSON object is left as it is.
const parseJson = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))

/**
 * The response with its request id: in the `x-request-id` header always, and as `request_id` in
 * the body of an error answer whose body is a JSON object (the error envelope, wherever it was built).
 */
export const withRequestId = (
  response: HttpServerResponse.HttpServerResponse,
  requestId: string
): HttpServerResponse.HttpServerResponse => {
  const tagged = HttpServerResponse.setHeader(response, requestIdHeader, requestId)
  const body = response.body
  if (response.status < 400 || body._tag !== "Uint8Array" || !body.contentType.startsWith("application/json")) {
    return tagged
  }
  const envelope = Option.getOrUndefined(parseJson(new TextDecoder().decode(body.body)))
  if (!isRecord(envelope)) return tagged
  return HttpServerResponse.setBody(
    tagged,
    HttpBody.text(JSON.stringify({ ...envelope, request_id: requestId }), body.contentType)
  )
}
