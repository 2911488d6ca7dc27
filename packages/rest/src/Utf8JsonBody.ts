import { BadRequest, declaresOtherCharset, utf8Text } from "@margin/edge/wire"
import { Effect, Option, Schema } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"

/**
 * What a JSON body must be before it is decoded (docs/api.md, "Conventions"): UTF-8 text. The
 * decoder the server uses replaces bytes that are not UTF-8 with U+FFFD, reads every declared
 * charset as UTF-8, and JSON's `\ud800` escapes yield lone surrogates that PostgreSQL would store
 * as U+FFFD: each would silently store something the client did not send. So a JSON body that
 * declares another charset is 415, and one whose bytes are not UTF-8, or whose strings hold a
 * lone surrogate, is 400 `bad_request`.
 */

const parseJson = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))

/**
 * Whether every string of a JSON value, keys included, is well formed (no lone surrogate). A walk
 * with its own stack: a body of a million `[`, or an array of a million elements, must not
 * overflow the call stack.
 */
export const wellFormedJson = (value: unknown): boolean => {
  const pending: Array<unknown> = [value]
  while (pending.length > 0) {
    const next = pending.pop()
    if (typeof next === "string") {
      if (!next.isWellFormed()) return false
    } else if (Array.isArray(next)) {
      // One by one: spreading half a million elements into push's arguments overflows the stack.
      for (const element of next) pending.push(element)
    } else if (typeof next === "object" && next !== null) {
      for (const [key, field] of Object.entries(next)) {
        if (!key.isWellFormed()) return false
        pending.push(field)
      }
    }
  }
  return true
}

const unsupportedCharset = HttpServerResponse.text("Send the body as application/json in UTF-8.", { status: 415 })

/**
 * Checks the JSON body of the request in context, reading it once (the server keeps the bytes for
 * the decoding that follows): a 415 answer for another charset, BadRequest for text that is not
 * UTF-8 or a lone surrogate, nothing when the body may be decoded. Another media type is left to the
 * decoding, which answers 415 itself; a body that is not JSON at all is left to it too (400).
 */
export const checkUtf8JsonBody: Effect.Effect<
  Option.Option<HttpServerResponse.HttpServerResponse>,
  BadRequest,
  HttpServerRequest.HttpServerRequest
> = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const contentType = request.headers["content-type"] ?? "application/json"
  if ((contentType.split(";")[0] ?? "").trim().toLowerCase() !== "application/json") return Option.none()
  if (declaresOtherCharset(contentType)) return Option.some(unsupportedCharset)
  // A body that cannot be read (too large, cut off) fails the same way when the decoding reads it.
  const bytes = yield* Effect.orDie(request.arrayBuffer)
  const text = utf8Text(bytes)
  if (Option.isNone(text)) return yield* new BadRequest({ detail: "it is not UTF-8 text" })
  // Only a `\u` escape can make a lone surrogate out of UTF-8 text.
  if (!text.value.includes("\\u")) return Option.none()
  const parsed = parseJson(text.value)
  if (Option.isSome(parsed) && !wellFormedJson(parsed.value)) {
    return yield* new BadRequest({ detail: "a string holds a lone surrogate escape, which no UTF-8 text can carry" })
  }
  return Option.none()
})
