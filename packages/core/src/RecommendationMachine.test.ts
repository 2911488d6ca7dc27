import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { CatalogItemId, RecommendationId, RunId, WorkspaceId } from "./Ids.ts"
import { CurrencyCode } from "./Money.ts"
import * as Outcome from "./Outcome.ts"
import type { Recommendation, RecommendationStatus } from "./Recommendation.ts"
import * as Machine from "./RecommendationMachine.ts"

const runId = RunId.make("run_1")
const newerRun = RunId.make("run_2")

const fresh: Recommendation = {
  id: RecommendationId.make("rec_1"),
  workspaceId: WorkspaceId.make("ws_1"),
  runId,
  itemId: CatalogItemId.make("itm_1"),
  sku: "SKU-1",
  currency: CurrencyCode.make("EUR"),
  currentPrice: 1000,
  recommendedPrice: 1099,
  currentMargin: 0.2,
  projectedMargin: 0.27,
  rule: "below_target_margin",
  explanation: "margin 20% is below the 30% target",
  elasticity: 0,
  elasticitySource: "assumed_zero",
  elasticitySampleSize: 0,
  expectedMonthlyImpact: 990,
  status: "new",
  acceptedAt: null,
  acceptedBy: null,
  approvedAt: null,
  decidedBy: null,
  decidedAt: null,
  rejectReason: null,
  dismissedAt: null,
  version: 0,
  createdAt: 0,
  updatedAt: 0
}

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
const reach = (path: ReadonlyArray<Machine.RecommendationCommand>): Recommendation =>
  path.reduce((state, command, step) => Outcome.current(Machine.decide(state, command, 1000 * (step + 1))), fresh)

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

type Expected = RecommendationStatus | "repeat" | "conflict"
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
          if (expected === R) {
            assert.strictEqual(outcome._tag, "IdempotentRepeat")
            assert.strictEqual(Outcome.current(outcome), state)
          } else if (expected === C) {
            assert.strictEqual(outcome._tag, "Conflict")
            assert.strictEqual(Outcome.current(outcome), state)
          } else {
            assert.strictEqual(outcome._tag, "Transitioned")
            assert.strictEqual(Outcome.current(outcome).status, expected)
            assert.strictEqual(Outcome.current(outcome).updatedAt, 99_000)
          }
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
    const history = fc.array(fc.tuple(command, fc.integer({ min: 0, max: 10_000 })), { maxLength: 12 })

    it("a repeated command that took effect is an IdempotentRepeat and changes nothing, whatever came after", () => {
      fc.assert(
        fc.property(history, (steps) => {
          let state = fresh
          let now = 0
          const tookEffect: Array<Machine.RecommendationCommand> = []
          for (const [next, delay] of steps) {
            now += delay
            const outcome = Machine.decide(state, next, now)
            if (outcome._tag === "Transitioned" && next._tag !== "Reject") tookEffect.push(next)
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

    it("no command sequence throws, and approve / reject succeed only from pending_approval", () => {
      fc.assert(
        fc.property(history, (steps) => {
          let state = fresh
          let now = 0
          for (const [next, delay] of steps) {
            now += delay
            const outcome = Machine.decide(state, next, now)
            if ((next._tag === "Approve" || next._tag === "Reject") && outcome._tag === "Transitioned") {
              assert.strictEqual(outcome.before.status, "pending_approval")
            }
            assert.strictEqual(Outcome.current(outcome).version, fresh.version)
            state = Outcome.current(outcome)
          }
        })
      )
    })

    it("a repeated reject is a conflict", () => {
      const rejected = reach([Accept, Reject])
      assert.strictEqual(Machine.decide(rejected, Reject, 1)._tag, "Conflict")
    })
  })
})
