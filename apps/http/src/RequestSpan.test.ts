import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { annotateRequestSpan } from "./RequestSpan.ts"

/** The attributes of the span `annotate` ran in. */
const attributesAfter = (annotate: Effect.Effect<void>) =>
  Effect.gen(function* () {
    yield* annotate
    const span = yield* Effect.currentSpan
    return span.attributes
  }).pipe(Effect.withSpan("request"))

describe("annotateRequestSpan", () => {
  it.effect("puts the request id, the caller and the workspace on the current span", () =>
    Effect.gen(function* () {
      const attributes = yield* attributesAfter(
        annotateRequestSpan("req_1", { caller: "token:tok_1", workspace: "ws_1" })
      )
      assert.deepStrictEqual(Object.fromEntries(attributes), {
        request_id: "req_1",
        caller: "token:tok_1",
        workspace: "ws_1"
      })
    })
  )

  it.effect("leaves out what the request has not told yet", () =>
    Effect.gen(function* () {
      const anonymous = yield* attributesAfter(annotateRequestSpan("req_2", { caller: null, workspace: null }))
      assert.deepStrictEqual(Object.fromEntries(anonymous), { request_id: "req_2" })
      const noWorkspace = yield* attributesAfter(
        annotateRequestSpan("req_3", { caller: "user:usr_1", workspace: null })
      )
      assert.deepStrictEqual(Object.fromEntries(noWorkspace), { request_id: "req_3", caller: "user:usr_1" })
    })
  )

  it.effect("does nothing, and does not fail, outside a span", () =>
    Effect.gen(function* () {
      const outside = yield* Effect.exit(annotateRequestSpan("req_4", { caller: "token:tok_1", workspace: "ws_1" }))
      assert.strictEqual(outside._tag, "Success")
    })
  )
})
