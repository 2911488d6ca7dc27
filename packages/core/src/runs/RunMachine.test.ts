import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import * as Outcome from "../kernel/Outcome.ts"
import { aRun } from "../testing/Fixtures.ts"
import * as Laws from "../testing/MachineLaws.ts"
import { type RunStatus, runStatuses } from "./Run.ts"
import * as Machine from "./RunMachine.ts"

const queued = aRun({ status: "queued", startedAt: null, finishedAt: null, error: null })

const fail = Machine.fail("catalog unreadable")

const reach = (path: ReadonlyArray<Parameters<typeof Machine.decide>[1]>) => Laws.reach(Machine.decide, queued, path)

const states: Record<RunStatus, ReadonlyArray<Machine.RunCommand>> = {
  queued: [],
  running: [Machine.start],
  succeeded: [Machine.start, Machine.succeed],
  failed: [Machine.start, fail],
  cancelled: [Machine.cancel]
}

type Expected = Laws.Expected<RunStatus>
const R = "repeat"
const C = "conflict"
const commandOrder = [Machine.start, Machine.succeed, fail, Machine.cancel] as const

// biome-ignore format: the table reads as a matrix
const matrix: Record<RunStatus, readonly [Expected, Expected, Expected, Expected]> = {
  //          Start      Succeed      Fail      Cancel
  queued:    ["running", C,           C,        "cancelled"],
  running:   [R,         "succeeded", "failed", C],
  succeeded: [R,         R,           C,        C],
  failed:    [R,         C,           R,        C],
  cancelled: [C,         C,           C,        R]
}

describe("RunMachine", () => {
  describe("every (state, command) pair", () => {
    for (const status of runStatuses) {
      commandOrder.forEach((command, column) => {
        const expected = matrix[status][column]
        it(`${status} + ${command._tag} -> ${expected}`, () => {
          const state = reach(states[status])
          const outcome = Machine.decide(state, command, 99_000)
          Laws.assertCell(state, outcome, expected)
        })
      })
    }
  })

  it("records when the run started and finished, and why it failed", () => {
    const failed = reach([Machine.start, fail])
    assert.deepStrictEqual([failed.startedAt, failed.finishedAt, failed.error], [1000, 2000, "catalog unreadable"])
    const cancelled = reach([Machine.cancel])
    assert.deepStrictEqual([cancelled.startedAt, cancelled.finishedAt], [null, 1000])
  })

  it("a second fail keeps the first error", () => {
    const failed = reach([Machine.start, fail])
    const again = Machine.decide(failed, Machine.fail("other"), 5000)
    assert.strictEqual(Outcome.current(again).error, "catalog unreadable")
  })

  describe("properties", () => {
    const command = fc.oneof(
      fc.constantFrom(Machine.start, Machine.succeed, Machine.cancel),
      fc.string({ maxLength: 6 }).map(Machine.fail)
    )

    it("a repeated command that took effect is an IdempotentRepeat and changes nothing, whatever came after", () => {
      fc.assert(
        fc.property(Laws.history(command), (steps) =>
          Laws.assertRepeatsAreIdempotent(Machine.decide, queued, steps, {
            repeatable: () => true,
            replaces: () => false
          })
        )
      )
    })

    it("no command sequence throws, and a finished run never changes again", () => {
      fc.assert(
        fc.property(Laws.history(command), (steps) => {
          Laws.replay(Machine.decide, queued, steps, ({ outcome }) => {
            if (outcome._tag === "Transitioned") assert.include(["queued", "running"], outcome.before.status)
          })
        })
      )
    })
  })
})
