import { assert, describe, it } from "@effect/vitest"
import * as Outcome from "./Outcome.ts"

describe("Outcome", () => {
  it("current reads the entity after the outcome", () => {
    assert.strictEqual(Outcome.current(Outcome.transitioned(1, 2)), 2)
    assert.strictEqual(Outcome.current(Outcome.idempotentRepeat(3)), 3)
    assert.strictEqual(Outcome.current(Outcome.conflict(4, "no")), 4)
  })
})
