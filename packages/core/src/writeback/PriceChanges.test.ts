import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { CatalogRepository } from "../catalog/CatalogRepository.ts"
import { RecommendationId } from "../kernel/Ids.ts"
import { MemoryStore } from "../memory/MemoryStore.ts"
import { StoreConnectionRepository } from "../stores/StoreConnectionRepository.ts"
import { approvedWriteBack, auditOf, sessionActor, useCases, wsA, wsB } from "../testing/UseCases.ts"
import { PriceChanges } from "./PriceChanges.ts"
import { WriteBackDelivery } from "./WriteBackDelivery.ts"

/** Item A moved from 10.00 to 10.99 in the catalog and the store by an approval delivered at `at`. */
const appliedChange = (at: number) =>
  Effect.gen(function* () {
    const approved = yield* approvedWriteBack(at)
    const report = yield* WriteBackDelivery.use((delivery) => delivery.deliverOne(approved.writeBack))
    assert.strictEqual(report.outcome, "applied")
    return approved
  })

const storePrice = MemoryStore.use((store) => store.priceOf(wsA, "var-A"))

describe("PriceChanges", () => {
  it.effect("lists the approvals' changes newest first with who decided and the write-back's result", () =>
    Effect.gen(function* () {
      const { recommendation } = yield* appliedChange(5_000)
      const page = yield* PriceChanges.use((changes) => changes.list(wsA, { limit: 10, cursor: null }))
      assert.strictEqual(page.items.length, 1)
      const [change] = page.items
      assert.strictEqual(change?.writeBack.status, "applied")
      assert.deepStrictEqual([change?.writeBack.payload.oldPrice, change?.writeBack.payload.newPrice], [1000, 1099])
      assert.strictEqual(change?.recommendation.id, recommendation.id)
      assert.strictEqual(change?.recommendation.decidedBy, "user:usr_b")
      assert.strictEqual(change?.recommendation.decidedAt, 5_000)
      assert.isNull(change?.undo)
      assert.deepStrictEqual(yield* PriceChanges.use((changes) => changes.list(wsB, { limit: 10, cursor: null })), {
        items: [],
        nextCursor: null
      })
    }).pipe(Effect.provide(useCases))
  )

  it.effect("undo writes the previous price back through the outbox, once, and audits it", () =>
    Effect.gen(function* () {
      const { recommendation, writeBack, item } = yield* appliedChange(5_000)
      assert.deepStrictEqual(yield* storePrice, Option.some(1099))
      const undone = yield* PriceChanges.use((changes) =>
        changes.undo(wsA, recommendation.id, sessionActor, "approver")
      )
      assert.strictEqual(undone.writeBack.status, "applied")
      const undo = undone.change.undo
      assert.isNotNull(undo)
      assert.deepStrictEqual(undo?.undo, { of: writeBack.id, by: "user:usr_b" })
      assert.deepStrictEqual([undo?.payload.oldPrice, undo?.payload.newPrice, undo?.status], [1099, 1000, "applied"])
      // The store and the catalog are back at the old price; the recommendation stays applied.
      assert.deepStrictEqual(yield* storePrice, Option.some(1000))
      const stored = yield* CatalogRepository.use((catalog) => catalog.get(wsA, item.id))
      assert.strictEqual(Option.getOrThrow(stored).price, 1000)
      assert.strictEqual(undone.change.recommendation.status, "applied")
      const audit = yield* auditOf(wsA)
      assert.deepStrictEqual(
        audit
          .filter((event) => event.action === "write_back.undo")
          .map((event) => [event.actor, event.resourceId, event.beforeStatus, event.afterStatus]),
        [["user:usr_b", writeBack.id, "applied", "undo_pending"]]
      )
      // A second undo is refused with its reason, and writes nothing.
      const again = yield* Effect.flip(
        PriceChanges.use((changes) => changes.undo(wsA, recommendation.id, sessionActor, "owner"))
      )
      assert.strictEqual(again._tag, "TransitionConflict")
      assert.include(again._tag === "TransitionConflict" ? again.reason : "", "already undone")
      assert.strictEqual((yield* MemoryStore.use((store) => store.writes)).length, 2)
    }).pipe(Effect.provide(useCases))
  )

  it.effect("undo is refused when the price moved since, and the store is left as it is", () =>
    Effect.gen(function* () {
      const { recommendation, item } = yield* appliedChange(5_000)
      yield* CatalogRepository.use((catalog) => catalog.setPrice(wsA, item.id, 1249, 6_000))
      const refused = yield* Effect.flip(
        PriceChanges.use((changes) => changes.undo(wsA, recommendation.id, sessionActor, "approver"))
      )
      assert.strictEqual(refused._tag, "TransitionConflict")
      if (refused._tag === "TransitionConflict") {
        assert.strictEqual(refused.status, "price_moved")
        assert.include(refused.reason, "the price moved since: it is 12.49")
      }
      assert.deepStrictEqual(yield* storePrice, Option.some(1099))
      const change = yield* PriceChanges.use((changes) => changes.get(wsA, recommendation.id))
      assert.isNull(change.undo)
    }).pipe(Effect.provide(useCases))
  )

  it.effect("undo is refused below approver, without a store, before the change is applied, and elsewhere", () =>
    Effect.gen(function* () {
      const { recommendation } = yield* approvedWriteBack(5_000)
      const undo = (role: "analyst" | "approver", workspace = wsA, id = recommendation.id) =>
        Effect.flip(PriceChanges.use((changes) => changes.undo(workspace, id, sessionActor, role)))
      assert.strictEqual((yield* undo("analyst"))._tag, "ForbiddenRole")
      const pending = yield* undo("approver")
      assert.strictEqual(pending._tag, "TransitionConflict")
      assert.include(pending._tag === "TransitionConflict" ? pending.reason : "", "only an applied price change")
      assert.strictEqual((yield* undo("approver", wsA, RecommendationId.make("rec_none")))._tag, "ResourceNotFound")
      assert.strictEqual((yield* undo("approver", wsB))._tag, "ResourceNotFound")
      yield* StoreConnectionRepository.use((stores) => stores.disconnect(wsA))
      assert.strictEqual((yield* undo("approver"))._tag, "NoCommerceIntegration")
    }).pipe(Effect.provide(useCases))
  )

  it.effect("an undo the store refuses fails for good: the store's price moved since, so nothing is written", () =>
    Effect.gen(function* () {
      const { recommendation } = yield* appliedChange(5_000)
      // The store moved on its own, unseen by the catalog: the adapter's own check stops the undo.
      yield* MemoryStore.use((store) => store.setPrice(wsA, "var-A", 1500))
      const undone = yield* PriceChanges.use((changes) => changes.undo(wsA, recommendation.id, sessionActor, "admin"))
      assert.strictEqual(undone.writeBack.status, "failed")
      assert.strictEqual(undone.change.undo?.status, "failed")
      assert.deepStrictEqual(yield* storePrice, Option.some(1500))
      assert.strictEqual(undone.change.recommendation.status, "applied")
    }).pipe(Effect.provide(useCases))
  )
})
