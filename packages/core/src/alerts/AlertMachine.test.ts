import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import * as Outcome from "../kernel/Outcome.ts"
import { anAlert } from "../testing/Fixtures.ts"
import * as Laws from "../testing/MachineLaws.ts"
import type { AlertStatus } from "./Alert.ts"
import * as Machine from "./AlertMachine.ts"

const fresh = anAlert({ status: "open", snoozedUntil: null, resolvedAt: null, dismissedAt: null, createdAt: 0 })

const snoozeSame = Machine.snooze(50_000, "waiting for the supplier")
const snoozeNew = Machine.snooze(80_000, "later")
const snoozePast = Machine.snooze(10_000, "too late")

const reach = (path: ReadonlyArray<Parameters<typeof Machine.decide>[1]>) => Laws.reach(Machine.decide, fresh, path)

const states: Record<string, { readonly path: ReadonlyArray<Machine.AlertCommand>; readonly now: number }> = {
  open: { path: [], now: 20_000 },
  snoozed: { path: [snoozeSame], now: 20_000 },
  "snoozed, expired (reads open)": { path: [snoozeSame], now: 60_000 },
  resolved: { path: [Machine.resolve], now: 20_000 },
  "resolved after a snooze": { path: [snoozeSame, Machine.resolve], now: 20_000 },
  dismissed: { path: [Machine.dismiss], now: 20_000 },
  "dismissed after a snooze": { path: [snoozeSame, Machine.dismiss], now: 20_000 }
}

type Expected = Laws.Expected<AlertStatus>
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
          Laws.assertCell(state, outcome, expected ?? C)
          if (outcome._tag === "Transitioned") assert.strictEqual(outcome.after.updatedAt, now)
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

    it("a repeated command that took effect is an IdempotentRepeat and changes nothing, whatever came after", () => {
      fc.assert(
        fc.property(Laws.history(command, 20_000), (steps) =>
          Laws.assertRepeatsAreIdempotent(Machine.decide, fresh, steps, {
            repeatable: () => true,
            // A later snooze moves the earlier one: only the latest instant is a repeat.
            replaces: (later, earlier) => later._tag === "Snooze" && earlier._tag === "Snooze"
          })
        )
      )
    })

    it("no command sequence throws, no snooze lands in the past, and resolved / dismissed are final", () => {
      fc.assert(
        fc.property(Laws.history(command, 20_000), (steps) => {
          Laws.replay(Machine.decide, fresh, steps, ({ command: next, outcome, now }) => {
            if (outcome._tag === "Transitioned") {
              assert.include(["open", "snoozed"], Machine.effectiveStatus(outcome.before, now))
              if (next._tag === "Snooze") assert.isAbove(next.until, now)
            }
            assert.strictEqual(Outcome.current(outcome).version, fresh.version)
          })
        })
      )
    })
  })
})
