import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { HttpClientRequest, HttpClientResponse } from "effect/http"
import { fromResponse } from "./ApiError.ts"

/** What an answer outside the contract becomes: never a guess at a code. */
const failureOf = (status: number, body: string, headers: Record<string, string> = {}) =>
  Effect.flip(
    fromResponse(
      HttpClientResponse.fromWeb(
        HttpClientRequest.get("http://127.0.0.1/api/v1/runs"),
        new Response(body, { status, headers })
      )
    )
  )

const requestId = "4b1f0c1e-6c55-4a49-9d53-1f0f3f3c9a11"

describe("fromResponse", () => {
  it.effect("the envelope becomes the error of its code, with the request's id", () =>
    Effect.gen(function* () {
      const error = yield* failureOf(
        404,
        JSON.stringify({ code: "not_found", message: "No run x.", request_id: requestId })
      )
      assert.deepStrictEqual([error._tag, error.status], ["ApiError", 404])
      if (error._tag !== "ApiError") return
      assert.strictEqual(error.code, "not_found")
      assert.strictEqual(error.requestId, requestId)
    })
  )

  it.effect("a scope this client does not know yet is still an insufficient_scope", () =>
    Effect.gen(function* () {
      const error = yield* failureOf(
        403,
        JSON.stringify({ code: "insufficient_scope", message: "No.", required: "pricing:write", request_id: requestId })
      )
      assert.isTrue(
        error._tag === "ApiError" && error.code === "insufficient_scope" && error.required === "pricing:write"
      )
    })
  )

  it.effect("the request's id from x-request-id when the body lacks it", () =>
    Effect.gen(function* () {
      const error = yield* failureOf(405, JSON.stringify({ code: "method_not_allowed", message: "No." }), {
        "x-request-id": "mine-1"
      })
      assert.isTrue(error._tag === "ApiError" && error.requestId === "mine-1")
    })
  )

  it.effect("a body without the envelope, an unknown code, a 429 without Retry-After: UnexpectedResponse", () =>
    Effect.gen(function* () {
      const proxy = yield* failureOf(502, "<html>Bad Gateway</html>")
      const unknown = yield* failureOf(
        418,
        JSON.stringify({ code: "teapot", message: "Short and stout.", request_id: requestId })
      )
      const noRetryAfter = yield* failureOf(
        429,
        JSON.stringify({ code: "rate_limited", message: "Slow down.", request_id: requestId })
      )
      assert.deepStrictEqual(
        [proxy, unknown, noRetryAfter].map((error) => [error._tag, error.status]),
        [
          ["UnexpectedResponse", 502],
          ["UnexpectedResponse", 418],
          ["UnexpectedResponse", 429]
        ]
      )
    })
  )
})
