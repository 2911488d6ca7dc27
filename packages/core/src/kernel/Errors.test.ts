import { assert, describe, it } from "@effect/vitest"
import { reasonOf } from "./Errors.ts"

describe("reasonOf", () => {
  it("the message, else the cause's message, else the tag", () => {
    assert.strictEqual(reasonOf({ message: "refused" }), "refused")
    assert.strictEqual(reasonOf({ message: "", _tag: "RedisError", cause: new Error("ECONNREFUSED") }), "ECONNREFUSED")
    assert.strictEqual(reasonOf({ message: "", _tag: "TimeoutError" }), "TimeoutError")
    assert.strictEqual(reasonOf({ message: "" }), "unknown failure")
  })
})
