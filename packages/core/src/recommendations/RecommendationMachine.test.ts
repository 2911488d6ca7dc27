import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { RunId } from "../kernel/Ids.ts"
import * as Outcome from "../kernel/Outcome.ts"
import { aRecommendation } from "../testing/Fixtures.ts"
import * as Laws from "../testing/MachineLaws.ts"
import type { RecommendationStatus } from "./Recommendation.ts"
import * as Machine from "./RecommendationMachine.ts"

const runId = RunId.make("run_1")
const newerRun = RunId.make("run_2")

const fresh = aRecommendation({ runId, acceptedAt: null, status: "new" })

const commands = {
  Accept: Machine.accept("token:tok_a"),
  Dismiss: Machine.dismiss("user:usr_d"),
  Approve: Machine.approve("user:usr_b"),
  Reject: Machine.reject("user:usr_b", "too steep"),
  Supersede: Machine.supersede(newerRun),
  WriteBackApplied: Machine.writeBackApplied,
  WriteBackFailed: Machine.writeBackFailed
} satisfies Record<Machine.RecommendationCommandTag, Machine.RecommendationCommand>

/** Reaches a state the way production does: through the machine, one command per step. */
const reach = (path: ReadonlyArray<Parameters<typeof Machine.decide>[1]>) => Laws.reach(Machine.decide, fresh, path)

const { Accept, Dismiss, Approve, Reject, Supersede, WriteBackApplied, WriteBackFailed } = commands

const states: Record<string, ReadonlyArray<Machine.RecommendationCommand>> = {
  new: [],
  pending_approval: [Accept],
  approved: [Accept, Approve],
  applied: [Accept, Approve, WriteBackApplied],
  write_back_failed: [Accept, Approve, WriteBackFailed],
  rejected: [Accept, Reject],
  "dismissed (from new)": [Dismiss],
  "dismissed (from pending_approval)": [Accept, Dismiss],
  "superseded (from new)": [Supersede],
  "superseded (from pending_approval)": [Accept, Supersede]
}

type Expected = Laws.Expected<RecommendationStatus>
const R = "repeat"
const C = "conflict"

// biome-ignore format: the table reads as a matrix
const matrix: Record<keyof typeof states, readonly [Expected, Expected, Expected, Expected, Expected, Expected, Expected]> = {
  //                                    Accept              Dismiss      Approve     Reject      Supersede     WBApplied  WBFailed
  new:                                 ["pending_approval", "dismissed", C,          C,          "superseded", C,         C],
  pending_approval:                    [R,                  "dismissed", "approved", "rejected", "superseded", C,         C],
  approved:                            [R,                  C,           R,          C,          C,            "applied", "write_back_failed"],
  applied:                             [R,                  C,           R,          C,          C,            R,         C],
  write_back_failed:                   [R,                  C,           R,          C,          C,            C,         R],
  rejected:                            [R,                  C,           C,          C,          C,            C,         C],
  "dismissed (from new)":              [C,                  R,           C,          C,          C,            C,         C],
  "dismissed (from pending_approval)": [R,                  R,           C,          C,          C,            C,         C],
  "superseded (from new)":             [C,                  C,           C,          C,          R,            C,         C],
  "superseded (from pending_approval)":[R,                  C,           C,          C,          R,            C,         C]
}

const commandOrder = [Accept, Dismiss, Approve, Reject, Supersede, WriteBackApplied, WriteBackFailed] as const

describe("RecommendationMachine", () => {
  describe("every (state, command) pair", () => {
    for (const [name, path] of Object.entries(states)) {
      const row = matrix[name]
      commandOrder.forEach((command, column) => {
        const expected = row?.[column]
        it(`${name} + ${command._tag} -> ${expected}`, () => {
          const state = reach(path)
          const outcome = Machine.decide(state, command, 99_000)
          Laws.assertCell(state, outcome, expected ?? C)
          if (outcome._tag === "Transitioned") assert.strictEqual(outcome.after.updatedAt, 99_000)
        })
      })
    }
  })

  it("accept records who accepted and when", () => {
    const after = Outcome.current(Machine.decide(fresh, Accept, 5))
    assert.deepStrictEqual([after.acceptedAt, after.acceptedBy, after.updatedAt], [5, "token:tok_a", 5])
  })

  it("approve records the decision", () => {
    const after = Outcome.current(Machine.decide(reach([Accept]), Approve, 7))
    assert.deepStrictEqual([after.approvedAt, after.decidedAt, after.decidedBy], [7, 7, "user:usr_b"])
  })

  it("reject records the decision and its reason", () => {
    const after = Outcome.current(Machine.decide(reach([Accept]), Reject, 8))
    assert.deepStrictEqual(
      [after.status, after.decidedAt, after.decidedBy, after.rejectReason, after.approvedAt],
      ["rejected", 8, "user:usr_b", "too steep", null]
    )
  })

  it("dismiss records when and by whom", () => {
    const after = Outcome.current(Machine.decide(fresh, Dismiss, 9))
    assert.deepStrictEqual([after.dismissedAt, after.decidedAt, after.decidedBy], [9, 9, "user:usr_d"])
  })

  it("a run does not supersede its own recommendations", () => {
    const outcome = Machine.decide(fresh, Machine.supersede(runId), 10)
    assert.strictEqual(outcome._tag, "Conflict")
  })

  it("a conflict says which states allow the command", () => {
    const outcome = Machine.decide(fresh, Approve, 10)
    assert.strictEqual(
      outcome._tag === "Conflict" ? outcome.reason : "",
      "approve is allowed only from pending_approval; the recommendation is new"
    )
  })

  it("names commands in snake case", () => {
    assert.deepStrictEqual(commandOrder.map(Machine.commandName), [
      "accept",
      "dismiss",
      "approve",
      "reject",
      "supersede",
      "write_back_applied",
      "write_back_failed"
    ])
  })

  describe("properties", () => {
    const command = fc.oneof(
      fc.constantFrom(...commandOrder),
      fc.string({ maxLength: 8 }).map((actor) => Machine.accept(actor)),
      fc.string({ maxLength: 8 }).map((reason) => Machine.reject("user:x", reason)),
      fc.constantFrom(runId, newerRun, RunId.make("run_3")).map(Machine.supersede)
    )

    it("a repeated command that took effect is an IdempotentRepeat and changes nothing, whatever came after", () => {
      fc.assert(
        fc.property(Laws.history(command), (steps) =>
          Laws.assertRepeatsAreIdempotent(Machine.decide, fresh, steps, {
            repeatable: (c) => c._tag !== "Reject",
            replaces: () => false
          })
        )
      )
    })

    it("no command sequence throws, and approve / reject succeed only from pending_approval", () => {
      fc.assert(
        fc.property(Laws.history(command), (steps) => {
          Laws.replay(Machine.decide, fresh, steps, ({ command: next, outcome }) => {
            if ((next._tag === "Approve" || next._tag === "Reject") && outcome._tag === "Transitioned") {
              assert.strictEqual(outcome.before.status, "pending_approval")
            }
            assert.strictEqual(Outcome.current(outcome).version, fresh.version)
          })
        })
      )
    })

    it("a repeated reject is a conflict", () => {
      const rejected = reach([Accept, Reject])
      assert.strictEqual(Machine.decide(rejected, Reject, 1)._tag, "Conflict")
    })
  })
})
