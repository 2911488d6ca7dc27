import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { ForbiddenRole } from "../kernel/Errors.ts"
import { RecommendationId } from "../kernel/Ids.ts"
import {
  auditOf,
  connectStore,
  seedItem,
  seedRecommendation,
  seedWorkspace,
  sessionActor,
  tokenActor,
  useCases,
  wsA,
  wsB
} from "../testing/UseCases.ts"
import { WriteBackOutbox } from "../writeback/WriteBackOutbox.ts"
import { Recommendations } from "./Recommendations.ts"

/** Workspace A on Max with a store, one item at 10.00 with a recommendation to 10.99. */
const setup = Effect.gen(function* () {
  yield* seedWorkspace(wsA, "max")
  yield* connectStore(wsA)
  const item = yield* seedItem(wsA, { sku: "A", price: 1000, cost: 700 })
  return yield* seedRecommendation(item, 1099)
})

describe("Recommendations", () => {
  it.effect("accept moves new to pending_approval, records who and when, and audits it", () =>
    Effect.gen(function* () {
      const seeded = yield* setup
      const service = yield* Recommendations
      const first = yield* service.accept(wsA, seeded.id, tokenActor)
      assert.strictEqual(first.idempotent, false)
      assert.strictEqual(first.recommendation.status, "pending_approval")
      assert.strictEqual(first.recommendation.acceptedBy, "token:tok_a")
      const audit = yield* auditOf(wsA)
      assert.deepStrictEqual(
        audit.map((event) => [event.action, event.resourceId, event.beforeStatus, event.afterStatus, event.actor]),
        [["recommendation.accept", seeded.id, "new", "pending_approval", "token:tok_a"]]
      )
    }).pipe(Effect.provide(useCases))
  )

  it.effect("a repeated accept is idempotent and changes nothing, also after the approval", () =>
    Effect.gen(function* () {
      const seeded = yield* setup
      const service = yield* Recommendations
      const first = yield* service.accept(wsA, seeded.id, tokenActor)
      const again = yield* service.accept(wsA, seeded.id, tokenActor)
      assert.isTrue(again.idempotent)
      assert.deepStrictEqual(again.recommendation, first.recommendation)
      yield* service.approve(wsA, seeded.id, sessionActor, "approver")
      const afterApproval = yield* service.accept(wsA, seeded.id, tokenActor)
      assert.isTrue(afterApproval.idempotent)
      assert.strictEqual(afterApproval.recommendation.status, "approved")
      assert.strictEqual((yield* auditOf(wsA)).length, 2)
    }).pipe(Effect.provide(useCases))
  )

  it.effect("dismiss from pending_approval; a later accept or dismiss is a repeat", () =>
    Effect.gen(function* () {
      const seeded = yield* setup
      const service = yield* Recommendations
      yield* service.accept(wsA, seeded.id, tokenActor)
      const dismissed = yield* service.dismiss(wsA, seeded.id, tokenActor)
      assert.strictEqual(dismissed.recommendation.status, "dismissed")
      assert.isTrue((yield* service.dismiss(wsA, seeded.id, tokenActor)).idempotent)
      assert.isTrue((yield* service.accept(wsA, seeded.id, tokenActor)).idempotent)
    }).pipe(Effect.provide(useCases))
  )

  it.effect("reject records the reason; a repeated reject is a conflict", () =>
    Effect.gen(function* () {
      const seeded = yield* setup
      const service = yield* Recommendations
      yield* service.accept(wsA, seeded.id, tokenActor)
      const rejected = yield* service.reject(wsA, seeded.id, sessionActor, "approver", "too steep")
      assert.deepStrictEqual(
        [rejected.recommendation.status, rejected.recommendation.rejectReason],
        ["rejected", "too steep"]
      )
      const again = yield* Effect.flip(service.reject(wsA, seeded.id, sessionActor, "approver", "too steep"))
      assert.strictEqual(again._tag, "TransitionConflict")
    }).pipe(Effect.provide(useCases))
  )

  it.effect("approve and reject only from pending_approval", () =>
    Effect.gen(function* () {
      const seeded = yield* setup
      const service = yield* Recommendations
      const approve = yield* Effect.flip(service.approve(wsA, seeded.id, sessionActor, "approver"))
      const reject = yield* Effect.flip(service.reject(wsA, seeded.id, sessionActor, "approver", "no"))
      assert.deepStrictEqual([approve._tag, reject._tag], ["TransitionConflict", "TransitionConflict"])
      assert.strictEqual((yield* service.get(wsA, seeded.id)).status, "new")
      assert.strictEqual((yield* auditOf(wsA)).length, 0)
    }).pipe(Effect.provide(useCases))
  )

  it.effect("another workspace's recommendation is not found, for reads and every command", () =>
    Effect.gen(function* () {
      const seeded = yield* setup
      yield* seedWorkspace(wsB, "enterprise")
      yield* connectStore(wsB)
      const service = yield* Recommendations
      const failures = yield* Effect.all([
        Effect.flip(service.get(wsB, seeded.id)),
        Effect.flip(service.accept(wsB, seeded.id, tokenActor)),
        Effect.flip(service.dismiss(wsB, seeded.id, tokenActor)),
        Effect.flip(service.approve(wsB, seeded.id, sessionActor, "approver")),
        Effect.flip(service.reject(wsB, seeded.id, sessionActor, "approver", "no"))
      ])
      assert.deepStrictEqual(
        failures.map((failure) => failure._tag),
        Array(5).fill("ResourceNotFound")
      )
      assert.strictEqual(
        (yield* service.list(wsB, { status: null, runId: null }, { limit: 50, cursor: null })).items.length,
        0
      )
    }).pipe(Effect.provide(useCases))
  )

  it.effect("approve and reject need approver, admin or owner, checked before the plan and the resource", () =>
    Effect.gen(function* () {
      const service = yield* Recommendations
      const missing = RecommendationId.make("rec_missing")
      // A plan without write-back and no such recommendation: the role is refused first all the same.
      yield* seedWorkspace(wsA, "pro")
      for (const role of ["viewer", "analyst", null] as const) {
        const approve = yield* Effect.flip(service.approve(wsA, missing, sessionActor, role))
        const reject = yield* Effect.flip(service.reject(wsA, missing, sessionActor, role, "no"))
        assert.deepStrictEqual(approve, new ForbiddenRole({ role }))
        assert.deepStrictEqual(reject, new ForbiddenRole({ role }))
      }
      for (const role of ["approver", "admin", "owner"] as const) {
        const approve = yield* Effect.flip(service.approve(wsA, missing, sessionActor, role))
        const reject = yield* Effect.flip(service.reject(wsA, missing, sessionActor, role, "no"))
        assert.deepStrictEqual([approve._tag, reject._tag], ["TierIneligible", "ResourceNotFound"])
      }
    }).pipe(Effect.provide(useCases))
  )

  it.effect("approve checks plan, then store, then the recommendation, then its state", () =>
    Effect.gen(function* () {
      const service = yield* Recommendations
      const missing = RecommendationId.make("rec_missing")
      yield* seedWorkspace(wsA, "pro")
      const tier = yield* Effect.flip(service.approve(wsA, missing, sessionActor, "approver"))
      assert.deepStrictEqual([tier._tag, tier._tag === "TierIneligible" ? tier.plan : null], ["TierIneligible", "pro"])
      yield* seedWorkspace(wsB, "max")
      const noStore = yield* Effect.flip(service.approve(wsB, missing, sessionActor, "approver"))
      assert.strictEqual(noStore._tag, "NoCommerceIntegration")
      yield* connectStore(wsB)
      const notFound = yield* Effect.flip(service.approve(wsB, missing, sessionActor, "approver"))
      assert.strictEqual(notFound._tag, "ResourceNotFound")
      const item = yield* seedItem(wsB, { sku: "B", price: 1000, cost: 700 })
      const fresh = yield* seedRecommendation(item, 1099)
      const state = yield* Effect.flip(service.approve(wsB, fresh.id, sessionActor, "approver"))
      assert.strictEqual(state._tag, "TransitionConflict")
    }).pipe(Effect.provide(useCases))
  )

  it.effect("approve moves to approved and enqueues one write-back keyed by the recommendation, in one go", () =>
    Effect.gen(function* () {
      const seeded = yield* setup
      const service = yield* Recommendations
      yield* service.accept(wsA, seeded.id, tokenActor)
      const approved = yield* service.approve(wsA, seeded.id, sessionActor, "approver")
      assert.strictEqual(approved.idempotent, false)
      assert.deepStrictEqual(
        [approved.recommendation.status, approved.recommendation.decidedBy],
        ["approved", "user:usr_b"]
      )
      const writeBack = approved.writeBack
      assert.isNotNull(writeBack)
      assert.deepStrictEqual(
        writeBack === null ? null : [writeBack.idempotencyKey, writeBack.status, writeBack.attempts, writeBack.payload],
        [
          seeded.id,
          "pending",
          0,
          {
            itemId: seeded.itemId,
            sku: "A",
            storeProductRef: "prod-A",
            storeVariantRef: "var-A",
            currency: seeded.currency,
            oldPrice: 1000,
            newPrice: 1099
          }
        ]
      )
      const repeat = yield* service.approve(wsA, seeded.id, sessionActor, "approver")
      assert.isTrue(repeat.idempotent)
      assert.deepStrictEqual(repeat.writeBack, writeBack)
      const outbox = yield* WriteBackOutbox
      const stored = yield* outbox.getByRecommendation(wsA, seeded.id)
      assert.deepStrictEqual(Option.getOrNull(stored), writeBack)
      assert.deepStrictEqual(
        (yield* auditOf(wsA)).map((event) => event.action),
        ["recommendation.accept", "recommendation.approve"]
      )
    }).pipe(Effect.provide(useCases))
  )

  it.effect("getDetail shows no write-back before the approval and the outbox row after it", () =>
    Effect.gen(function* () {
      const seeded = yield* setup
      const service = yield* Recommendations
      const before = yield* service.getDetail(wsA, seeded.id)
      assert.strictEqual(before.writeBack, null)
      yield* service.accept(wsA, seeded.id, tokenActor)
      const approved = yield* service.approve(wsA, seeded.id, sessionActor, "approver")
      const after = yield* service.getDetail(wsA, seeded.id)
      assert.strictEqual(after.recommendation.status, "approved")
      assert.deepStrictEqual(after.writeBack, approved.writeBack)
      assert.strictEqual(after.writeBack?.status, "pending")
      const elsewhere = yield* Effect.flip(service.getDetail(wsB, seeded.id))
      assert.strictEqual(elsewhere._tag, "ResourceNotFound")
    }).pipe(Effect.provide(useCases))
  )

  it.effect("list filters by status", () =>
    Effect.gen(function* () {
      const seeded = yield* setup
      const other = yield* seedRecommendation(yield* seedItem(wsA, { sku: "C", price: 500, cost: 400 }), 549)
      const service = yield* Recommendations
      yield* service.accept(wsA, seeded.id, tokenActor)
      const page = { limit: 50, cursor: null }
      const fresh = yield* service.list(wsA, { status: "new", runId: null }, page)
      const pending = yield* service.list(wsA, { status: "pending_approval", runId: null }, page)
      assert.deepStrictEqual([fresh.items.map((r) => r.id), pending.items.map((r) => r.id)], [[other.id], [seeded.id]])
    }).pipe(Effect.provide(useCases))
  )
})
