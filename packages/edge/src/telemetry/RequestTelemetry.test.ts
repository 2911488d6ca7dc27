import { assert, describe, it } from "@effect/vitest"
import { type Context, Effect, Exit } from "effect"
import type { RequestNotes } from "./RequestLog.ts"
import { annotateRequestSpanIn } from "./RequestTelemetry.ts"

const annotate = (requestId: string, notes: RequestNotes) =>
  Effect.contextWith((context: Context.Context<never>) =>
    Effect.sync(() => annotateRequestSpanIn(context, requestId, notes))
  )

/** The attributes of the span `annotation` ran in. */
const attributesAfter = (annotation: Effect.Effect<void>) =>
  Effect.gen(function* () {
    yield* annotation
    const span = yield* Effect.currentSpan
    return Object.fromEntries(span.attributes)
  }).pipe(Effect.withSpan("request"))

describe("annotateRequestSpanIn", () => {
  it.effect("puts the request id, the caller and the workspace on the current span", () =>
    Effect.gen(function* () {
      const attributes = yield* attributesAfter(annotate("req_1", { caller: "token:tok_1", workspace: "ws_1" }))
      assert.deepStrictEqual(attributes, { request_id: "req_1", caller: "token:tok_1", workspace: "ws_1" })
    })
  )

  it.effect("leaves out what the request has not told yet", () =>
    Effect.gen(function* () {
      const anonymous = yield* attributesAfter(annotate("req_2", { caller: null, workspace: null }))
      assert.deepStrictEqual(anonymous, { request_id: "req_2" })
      const noWorkspace = yield* attributesAfter(annotate("req_3", { caller: "user:usr_1", workspace: null }))
      assert.deepStrictEqual(noWorkspace, { request_id: "req_3", caller: "user:usr_1" })
    })
  )

  it.effect("does nothing, and does not fail, outside a span", () =>
    Effect.gen(function* () {
      const outside = yield* Effect.exit(annotate("req_4", { caller: "token:tok_1", workspace: "ws_1" }))
      assert.strictEqual(outside._tag, "Success")
    })
  )

  it.effect("does nothing on a span that has ended", () =>
    Effect.gen(function* () {
      const span = yield* Effect.makeSpan("ended")
      yield* Effect.sync(() => span.end(0n, Exit.void))
      yield* annotate("req_5", { caller: null, workspace: null }).pipe(Effect.withParentSpan(span))
      assert.deepStrictEqual(Object.fromEntries(span.attributes), {})
    })
  )
})
