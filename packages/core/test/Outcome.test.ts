import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Outcome from "../src/Outcome.ts"

describe("Outcome", () => {
  it("current reads the entity after the outcome", () => {
    assert.strictEqual(Outcome.current(Outcome.transitioned(1, 2)), 2)
    assert.strictEqual(Outcome.current(Outcome.idempotentRepeat(3)), 3)
    assert.strictEqual(Outcome.current(Outcome.conflict(4, "no")), 4)
  })
  it.effect("runs under @effect/vitest", () => Effect.sync(() => assert.isTrue(true)))
})
