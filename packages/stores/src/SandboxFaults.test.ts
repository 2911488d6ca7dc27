import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { SandboxCrash, SandboxFaults } from "./SandboxFaults.ts"

describe("SandboxFaults", () => {
  it.effect("fails exactly the next N deliveries", () =>
    Effect.gen(function* () {
      const faults = yield* SandboxFaults
      yield* faults.failNext(2, "down for a test")
      const first = yield* Effect.flip(faults.beforeRead)
      const second = yield* Effect.flip(faults.beforeRead)
      yield* faults.beforeRead
      assert.deepStrictEqual([first.message, second.message], ["down for a test", "down for a test"])
    }).pipe(Effect.provide(SandboxFaults.layerTest))
  )

  it.effect("delays the next N deliveries at the chosen phase only", () =>
    Effect.gen(function* () {
      const faults = yield* SandboxFaults
      yield* faults.delayNext(1, "5 seconds", "after_write")
      yield* faults.beforeRead
      const slow = yield* Effect.forkChild(faults.afterWrite)
      yield* TestClock.adjust("4 seconds")
      assert.isUndefined(slow.pollUnsafe())
      yield* TestClock.adjust("1 second")
      yield* Fiber.join(slow)
      // Used up: the next write answers at once.
      yield* faults.afterWrite
    }).pipe(Effect.provide(SandboxFaults.layerTest))
  )

  it.effect("crashes after the next committed write, once", () =>
    Effect.gen(function* () {
      const faults = yield* SandboxFaults
      yield* faults.crashAfterNextWrite()
      const crashed = yield* Effect.exit(faults.afterWrite)
      assert.isTrue(Exit.hasDies(crashed))
      assert.isTrue(
        Exit.isFailure(crashed) &&
          crashed.cause.reasons.some((reason) => reason._tag === "Die" && reason.defect instanceof SandboxCrash)
      )
      yield* faults.afterWrite
    }).pipe(Effect.provide(SandboxFaults.layerTest))
  )
})
