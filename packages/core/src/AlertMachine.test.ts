import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import type { Alert, AlertStatus } from "./Alert.ts"
import * as Machine from "./AlertMachine.ts"
import { AlertId, CatalogItemId, RunId, WorkspaceId } from "./Ids.ts"
import * as Outcome from "./Outcome.ts"

const fresh: Alert = {
  id: AlertId.make("alt_1"),
  workspaceId: WorkspaceId.make("ws_1"),
  runId: RunId.make("run_1"),
  itemId: CatalogItemId.make("itm_1"),
  kind: "negative_margin",
  severity: "critical",
  message: "price is below cost",
  status: "open",
  snoozedUntil: null,
  snoozeReason: null,
  resolvedAt: null,
  dismissedAt: null,
  version: 0,
  createdAt: 0,
  updatedAt: 0
}

const snoozeSame = Machine.snooze(50_000, "waiting for the supplier")
const snoozeNew = Machine.snooze(80_000, "later")
const snoozePast = Machine.snooze(10_000, "too late")

const reach = (path: ReadonlyArray<Machine.AlertCommand>): Alert =>
  path.reduce((state, command, step) => Outcome.current(Machine.decide(state, command, 1000 * (step + 1))), fresh)

const states: Record<string, { readonly path: ReadonlyArray<Machine.AlertCommand>; readonly now: number }> = {
  open: { path: [], now: 20_000 },
  snoozed: { path: [snoozeSame], now: 20_000 },
  "snoozed, expired (reads open)": { path: [snoozeSame], now: 60_000 },
  resolved: { path: [Machine.resolve], now: 20_000 },
  "resolved after a snooze": { path: [snoozeSame, Machine.resolve], now: 20_000 },
  dismissed: { path: [Machine.dismiss], now: 20_000 },
  "dismissed after a snooze": { path: [snoozeSame, Machine.dismiss], now: 20_000 }
}

type Expected = AlertStatus | "repeat" | "conflict"
const R = "repeat"
const C = "conflict"
const commandOrder = [snoozeSame, snoozeNew, Machine.resolve, Machine.dismiss, snoozePast] as const

// biome-ignore format: the table reads as a matrix
const matrix: Record<keyof typeof states, readonly [Expected, Expected, Expected, Expected, Expected]> = {
  //                               snooze 50s  snooze 80s  resolve     dismiss      snooze 10s (past)
  open:                            ["snoozed", "snoozed",  "resolved", "dismissed", C],
  snoozed:                         [R,         "snoozed",  "resolved", "dismissed", C],
  "snoozed, expired (reads open)": [R,         "snoozed",  "resolved", "dismissed", C],
  resolved:                        [C,         C,          R,          C,           C],
  "resolved after a snooze":       [R,         C,          R,          C,           C],
  dismissed:                       [C,         C,          C,          R,           C],
  "dismissed after a snooze":      [R,         C,          C,          R,           C]
}

describe("AlertMachine", () => {
  describe("every (state, command) pair", () => {
    for (const [name, { path, now }] of Object.entries(states)) {
      commandOrder.forEach((command, column) => {
        const expected = matrix[name]?.[column]
        const label = command._tag === "Snooze" ? `Snooze(${command.until})` : command._tag
        it(`${name} + ${label} at ${now} -> ${expected}`, () => {
          const state = reach(path)
          const outcome = Machine.decide(state, command, now)
          if (expected === R || expected === C) {
            assert.strictEqual(outcome._tag, expected === R ? "IdempotentRepeat" : "Conflict")
            assert.strictEqual(Outcome.current(outcome), state)
          } else {
            assert.strictEqual(outcome._tag, "Transitioned")
            assert.strictEqual(Outcome.current(outcome).status, expected)
            assert.strictEqual(Outcome.current(outcome).updatedAt, now)
          }
        })
      })
    }
  })

  it("snooze records the instant and the reason; a new instant moves it", () => {
    const snoozed = Outcome.current(Machine.decide(fresh, snoozeSame, 1))
    assert.deepStrictEqual([snoozed.snoozedUntil, snoozed.snoozeReason], [50_000, "waiting for the supplier"])
    const moved = Outcome.current(Machine.decide(snoozed, snoozeNew, 2))
    assert.deepStrictEqual([moved.status, moved.snoozedUntil, moved.snoozeReason], ["snoozed", 80_000, "later"])
  })

  it("resolve and dismiss record when", () => {
    assert.strictEqual(Outcome.current(Machine.decide(fresh, Machine.resolve, 3)).resolvedAt, 3)
    assert.strictEqual(Outcome.current(Machine.decide(fresh, Machine.dismiss, 4)).dismissedAt, 4)
  })

  it("a snooze reads open once its instant has passed", () => {
    const snoozed = reach([snoozeSame])
    assert.strictEqual(Machine.effectiveStatus(snoozed, 49_999), "snoozed")
    assert.strictEqual(Machine.effectiveStatus(snoozed, 50_000), "open")
    assert.strictEqual(Machine.effectiveStatus(fresh, 0), "open")
    assert.strictEqual(Machine.effectiveStatus(reach([snoozeSame, Machine.resolve]), 60_000), "resolved")
  })

  it("a snooze at now is refused: it must be in the future", () => {
    assert.strictEqual(Machine.decide(fresh, Machine.snooze(5, "now"), 5)._tag, "Conflict")
  })

  describe("properties", () => {
    const command = fc.oneof(
      fc.constantFrom(Machine.resolve, Machine.dismiss),
      fc
        .tuple(fc.integer({ min: 0, max: 100_000 }), fc.string({ maxLength: 6 }))
        .map(([until, reason]) => Machine.snooze(until, reason))
    )
    const history = fc.array(fc.tuple(command, fc.integer({ min: 0, max: 20_000 })), { maxLength: 12 })

    it("a repeated command that took effect is an IdempotentRepeat and changes nothing, whatever came after", () => {
      fc.assert(
        fc.property(history, (steps) => {
          let state = fresh
          let now = 0
          let tookEffect: Array<Machine.AlertCommand> = []
          for (const [next, delay] of steps) {
            now += delay
            const outcome = Machine.decide(state, next, now)
            if (outcome._tag === "Transitioned") {
              // A later snooze moves the earlier one: only the latest instant is a repeat.
              if (next._tag === "Snooze") tookEffect = tookEffect.filter((c) => c._tag !== "Snooze")
              tookEffect.push(next)
            }
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

    it("no command sequence throws, no snooze lands in the past, and resolved / dismissed are final", () => {
      fc.assert(
        fc.property(history, (steps) => {
          let state = fresh
          let now = 0
          for (const [next, delay] of steps) {
            now += delay
            const outcome = Machine.decide(state, next, now)
            if (outcome._tag === "Transitioned") {
              assert.include(["open", "snoozed"], Machine.effectiveStatus(outcome.before, now))
              if (next._tag === "Snooze") assert.isAbove(next.until, now)
            }
            assert.strictEqual(Outcome.current(outcome).version, fresh.version)
            state = Outcome.current(outcome)
          }
        })
      )
    })
  })
})
