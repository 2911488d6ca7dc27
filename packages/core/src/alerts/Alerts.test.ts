import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { AlertId } from "../kernel/Ids.ts"
import { auditOf, seedAlert, seedWorkspace, tokenActor, useCases, wsA, wsB } from "../testing/UseCases.ts"
import { Alerts } from "./Alerts.ts"

const negativeMargin = { kind: "negative_margin", severity: "critical", message: "below cost" } as const
const noFilter = { status: null, kind: null, itemId: null }
const page = { limit: 50, cursor: null }

const setup = Effect.gen(function* () {
  yield* seedWorkspace(wsA, "free")
  yield* TestClock.setTime(10_000)
  return yield* seedAlert(wsA, "alt_1", negativeMargin)
})

describe("Alerts", () => {
  it.effect("snooze_until not in the future is invalid input, checked before the alert is looked up", () =>
    Effect.gen(function* () {
      yield* setup
      const alerts = yield* Alerts
      const atNow = yield* Effect.flip(alerts.snooze(wsA, AlertId.make("alt_1"), 10_000, "now", tokenActor))
      const unknown = yield* Effect.flip(alerts.snooze(wsA, AlertId.make("alt_nope"), 5_000, "past", tokenActor))
      assert.deepStrictEqual(
        [atNow, unknown].map((failure) => [failure._tag, failure._tag === "InvalidInput" ? failure.path : null]),
        [
          ["InvalidInput", "snooze_until"],
          ["InvalidInput", "snooze_until"]
        ]
      )
      assert.strictEqual((yield* alerts.get(wsA, AlertId.make("alt_1"))).status, "open")
    }).pipe(Effect.provide(useCases))
  )

  it.effect("snooze, repeat it idempotently, move it, and read it open once it passed", () =>
    Effect.gen(function* () {
      const alert = yield* setup
      const alerts = yield* Alerts
      const snoozed = yield* alerts.snooze(wsA, alert.id, 50_000, "supplier call", tokenActor)
      assert.deepStrictEqual(
        [snoozed.idempotent, snoozed.alert.status, snoozed.alert.snoozedUntil, snoozed.alert.snoozeReason],
        [false, "snoozed", 50_000, "supplier call"]
      )
      const repeat = yield* alerts.snooze(wsA, alert.id, 50_000, "supplier call", tokenActor)
      assert.isTrue(repeat.idempotent)
      assert.deepStrictEqual(repeat.alert, snoozed.alert)
      const moved = yield* alerts.snooze(wsA, alert.id, 60_000, "later", tokenActor)
      assert.deepStrictEqual([moved.idempotent, moved.alert.snoozedUntil], [false, 60_000])
      yield* TestClock.setTime(60_000)
      assert.strictEqual((yield* alerts.get(wsA, alert.id)).status, "open")
      const open = yield* alerts.list(wsA, { ...noFilter, status: "open" }, page)
      assert.deepStrictEqual(
        open.items.map((a) => [a.id, a.status]),
        [[alert.id, "open"]]
      )
      assert.deepStrictEqual(
        (yield* auditOf(wsA)).map((event) => [event.action, event.beforeStatus, event.afterStatus]),
        [
          ["alert.snooze", "open", "snoozed"],
          ["alert.snooze", "snoozed", "snoozed"]
        ]
      )
    }).pipe(Effect.provide(useCases))
  )

  it.effect("resolve is idempotent; dismiss after resolve is a conflict; the old snooze stays a repeat", () =>
    Effect.gen(function* () {
      const alert = yield* setup
      const alerts = yield* Alerts
      yield* alerts.snooze(wsA, alert.id, 50_000, "wait", tokenActor)
      const resolved = yield* alerts.resolve(wsA, alert.id, tokenActor)
      assert.deepStrictEqual(
        [resolved.idempotent, resolved.alert.status, resolved.alert.resolvedAt],
        [false, "resolved", 10_000]
      )
      assert.isTrue((yield* alerts.resolve(wsA, alert.id, tokenActor)).idempotent)
      assert.isTrue((yield* alerts.snooze(wsA, alert.id, 50_000, "wait", tokenActor)).idempotent)
      const dismiss = yield* Effect.flip(alerts.dismiss(wsA, alert.id, tokenActor))
      const snoozeAgain = yield* Effect.flip(alerts.snooze(wsA, alert.id, 70_000, "again", tokenActor))
      assert.deepStrictEqual([dismiss._tag, snoozeAgain._tag], ["TransitionConflict", "TransitionConflict"])
    }).pipe(Effect.provide(useCases))
  )

  it.effect("dismiss is idempotent", () =>
    Effect.gen(function* () {
      const alert = yield* setup
      const alerts = yield* Alerts
      assert.isFalse((yield* alerts.dismiss(wsA, alert.id, tokenActor)).idempotent)
      assert.isTrue((yield* alerts.dismiss(wsA, alert.id, tokenActor)).idempotent)
      assert.strictEqual((yield* auditOf(wsA)).length, 1)
    }).pipe(Effect.provide(useCases))
  )

  it.effect("another workspace's alert is not found", () =>
    Effect.gen(function* () {
      const alert = yield* setup
      yield* seedWorkspace(wsB, "free")
      const alerts = yield* Alerts
      const failures = yield* Effect.all([
        Effect.flip(alerts.get(wsB, alert.id)),
        Effect.flip(alerts.snooze(wsB, alert.id, 50_000, "x", tokenActor)),
        Effect.flip(alerts.resolve(wsB, alert.id, tokenActor)),
        Effect.flip(alerts.dismiss(wsB, alert.id, tokenActor))
      ])
      assert.deepStrictEqual(
        failures.map((failure) => failure._tag),
        Array(4).fill("ResourceNotFound")
      )
      assert.strictEqual((yield* alerts.list(wsB, noFilter, page)).items.length, 0)
    }).pipe(Effect.provide(useCases))
  )
})
