import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { failureBackoff, ownerId } from "./Loops.ts"

describe("Loops", () => {
  it.effect("owner ids name the host and the process, and differ per loop", () =>
    Effect.gen(function* () {
      const owners = yield* Effect.replicateEffect(ownerId, 3)
      for (const owner of owners) assert.match(owner, new RegExp(`^.+:${process.pid}:[0-9a-f]{8}$`))
      assert.strictEqual(new Set(owners).size, 3)
    })
  )

  it("the pause after failed rounds doubles the poll interval per failure, up to the maximum", () => {
    const pauses = [1, 2, 3, 4, 5, 40].map((failures) =>
      Duration.toMillis(failureBackoff(Duration.millis(250), failures, Duration.seconds(5)))
    )
    assert.deepStrictEqual(pauses, [500, 1000, 2000, 4000, 5000, 5000])
  })
})
