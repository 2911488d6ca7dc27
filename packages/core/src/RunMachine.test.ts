import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { RunId, WorkspaceId } from "./Ids.ts"
import * as Outcome from "./Outcome.ts"
import { type Run, type RunStatus, runStatuses } from "./Run.ts"
import * as Machine from "./RunMachine.ts"

const queued: Run = {
  id: RunId.make("run_1"),
  workspaceId: WorkspaceId.make("ws_1"),
  status: "queued",
  subsetTags: [],
  trigger: "api",
  requestedBy: "token:tok_1",
  itemsTotal: null,
  itemsAnalysed: 0,
  recommendationsCount: 0,
  alertsCount: 0,
  error: null,
  version: 0,
  createdAt: 0,
  startedAt: null,
  finishedAt: null
}

const fail = Machine.fail("catalog unreadable")

const reach = (path: ReadonlyArray<Machine.RunCommand>): Run =>
  path.reduce((state, command, step) => Outcome.current(Machine.decide(state, command, 1000 * (step + 1))), queued)

const states: Record<RunStatus, ReadonlyArray<Machine.RunCommand>> = {
  queued: [],
  running: [Machine.start],
  succeeded: [Machine.start, Machine.succeed],
  failed: [Machine.start, fail],
  cancelled: [Machine.cancel]
}

type Expected = RunStatus | "repeat" | "conflict"
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
          if (expected === R || expected === C) {
            assert.strictEqual(outcome._tag, expected === R ? "IdempotentRepeat" : "Conflict")
            assert.strictEqual(Outcome.current(outcome), state)
          } else {
            assert.strictEqual(outcome._tag, "Transitioned")
            assert.strictEqual(Outcome.current(outcome).status, expected)
          }
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
    const history = fc.array(fc.tuple(command, fc.integer({ min: 0, max: 10_000 })), { maxLength: 10 })

    it("a repeated command that took effect is an IdempotentRepeat and changes nothing, whatever came after", () => {
      fc.assert(
        fc.property(history, (steps) => {
          let state = queued
          let now = 0
          const tookEffect: Array<Machine.RunCommand> = []
          for (const [next, delay] of steps) {
            now += delay
            const outcome = Machine.decide(state, next, now)
            if (outcome._tag === "Transitioned") tookEffect.push(next)
            state = Outcome.current(outcome)
            for (const earlier of tookEffect) {
              const repeat = Machine.decide(state, earlier, now + 1)
              assert.strictEqual(repeat._tag, "IdempotentRepeat")
              assert.strictEqual(Outcome.current(repeat), state)
            }
          }
        })
      )
    })

    it("no command sequence throws, and a finished run never changes again", () => {
      fc.assert(
        fc.property(history, (steps) => {
          let state = queued
          let now = 0
          for (const [next, delay] of steps) {
            now += delay
            const outcome = Machine.decide(state, next, now)
            if (outcome._tag === "Transitioned") assert.include(["queued", "running"], outcome.before.status)
            state = Outcome.current(outcome)
          }
        })
      )
    })
  })
})
