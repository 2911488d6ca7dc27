import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { MemoryStore } from "../memory/MemoryStore.ts"
import {
  approvedWriteBack,
  auditOf,
  seedItem,
  seedRecommendation,
  tokenActor,
  useCases,
  wsA
} from "../testing/UseCases.ts"
import { WriteBackCancellation } from "./WriteBackCancellation.ts"
import { WriteBackDelivery } from "./WriteBackDelivery.ts"
import { WriteBackOutbox } from "./WriteBackOutbox.ts"

const start = 1_000_000

/** Item A's recommendation approved; its write-back pending, not yet delivered. */
const pending = approvedWriteBack(start)

const rowOf = (recommendationId: Parameters<WriteBackOutbox["Service"]["getByRecommendation"]>[1]) =>
  Effect.map(
    WriteBackOutbox.use((outbox) => outbox.getByRecommendation(wsA, recommendationId)),
    Option.getOrNull
  )

describe("WriteBackCancellation", () => {
  it.effect(
    "an admin cancels a pending write-back: failed as cancelled, the recommendation write_back_failed, audited, never delivered",
    () =>
      Effect.gen(function* () {
        const { recommendation } = yield* pending
        const cancellation = yield* WriteBackCancellation
        const cancelled = yield* cancellation.cancel(wsA, recommendation.id, tokenActor, "admin")
        assert.deepStrictEqual([cancelled.recommendation.status, cancelled.idempotent], ["write_back_failed", false])
        const row = yield* rowOf(recommendation.id)
        assert.deepStrictEqual([row?.status, row?.lastError], ["failed", "cancelled by token:tok_a"])
        const events = (yield* auditOf(wsA)).slice(-2)
        assert.deepStrictEqual(
          events.map((event) => [event.action, event.actor, event.beforeStatus, event.afterStatus]),
          [
            ["write_back.cancel", "token:tok_a", "pending", "cancelled"],
            ["recommendation.write_back_failed", "token:tok_a", "approved", "write_back_failed"]
          ]
        )
        yield* TestClock.adjust("1 hour")
        assert.deepStrictEqual(yield* (yield* WriteBackDelivery).deliverDue("worker-1", 10), [])
        assert.strictEqual(yield* (yield* MemoryStore).deliveries, 0, "the store never got the price")
        const again = yield* cancellation.cancel(wsA, recommendation.id, tokenActor, "owner")
        assert.deepStrictEqual([again.recommendation.status, again.idempotent], ["write_back_failed", true])
        assert.strictEqual((yield* auditOf(wsA)).length, (yield* auditOf(wsA)).length)
      }).pipe(Effect.provide(useCases))
  )

  it.effect("only an admin or the owner may cancel: forbidden_role below, and for a former member", () =>
    Effect.gen(function* () {
      const { recommendation } = yield* pending
      const cancellation = yield* WriteBackCancellation
      for (const role of ["viewer", "analyst", "approver", null] as const) {
        const refused = yield* Effect.flip(cancellation.cancel(wsA, recommendation.id, tokenActor, role))
        assert.strictEqual(refused._tag, "ForbiddenRole", String(role))
      }
      assert.strictEqual((yield* rowOf(recommendation.id))?.status, "pending")
    }).pipe(Effect.provide(useCases))
  )

  it.effect("a write-back being delivered or already ended cannot be cancelled; none at all is not found", () =>
    Effect.gen(function* () {
      const { recommendation, writeBack } = yield* pending
      const cancellation = yield* WriteBackCancellation
      const outbox = yield* WriteBackOutbox
      yield* outbox.claim(writeBack.id, "worker-1", start, start + 60_000)
      const inFlight = yield* Effect.flip(cancellation.cancel(wsA, recommendation.id, tokenActor, "admin"))
      assert.deepStrictEqual(
        [inFlight._tag, "status" in inFlight ? inFlight.status : null],
        ["TransitionConflict", "in_flight"]
      )
      yield* outbox.markApplied(writeBack.id, "worker-1", start)
      const ended = yield* Effect.flip(cancellation.cancel(wsA, recommendation.id, tokenActor, "admin"))
      assert.deepStrictEqual([ended._tag, "status" in ended ? ended.status : null], ["TransitionConflict", "applied"])
      const other = yield* seedRecommendation(yield* seedItem(wsA, { sku: "B", price: 500, cost: 100 }), 550, "rec_B")
      const none = yield* Effect.flip(cancellation.cancel(wsA, other.id, tokenActor, "admin"))
      assert.strictEqual(none._tag, "ResourceNotFound")
    }).pipe(Effect.provide(useCases))
  )
})
