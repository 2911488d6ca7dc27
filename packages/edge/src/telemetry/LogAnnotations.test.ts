import { assert, describe, it } from "@effect/vitest"
import { Context, References } from "effect"
import { withLogAnnotations } from "./LogAnnotations.ts"

describe("withLogAnnotations", () => {
  it("adds to the annotations the context carries, a later value winning, the original untouched", () => {
    const original = Context.make(References.CurrentLogAnnotations, { request_id: "req_1", caller: null })
    const added = withLogAnnotations(original, { caller: "token:tok_1", workspace: "ws_1" })
    assert.deepStrictEqual(Context.get(added, References.CurrentLogAnnotations), {
      request_id: "req_1",
      caller: "token:tok_1",
      workspace: "ws_1"
    })
    assert.deepStrictEqual(Context.get(original, References.CurrentLogAnnotations), {
      request_id: "req_1",
      caller: null
    })
  })

  it("starts from none when the context carries none", () => {
    const added = withLogAnnotations(Context.empty(), { request_id: "req_2" })
    assert.deepStrictEqual(Context.get(added, References.CurrentLogAnnotations), { request_id: "req_2" })
  })
})
