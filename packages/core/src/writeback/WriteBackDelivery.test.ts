import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { Alerts } from "../alerts/Alerts.ts"
import { CatalogRepository } from "../catalog/CatalogRepository.ts"
import { MemoryStore } from "../memory/MemoryStore.ts"
import { Recommendations } from "../recommendations/Recommendations.ts"
import { StoreConnectionRepository } from "../stores/StoreConnectionRepository.ts"
import { approvedWriteBack, auditOf, testDelivery, useCases, wsA } from "../testing/UseCases.ts"
import { WriteBackDelivery } from "./WriteBackDelivery.ts"
import { WriteBackOutbox } from "./WriteBackOutbox.ts"

const start = 1_000_000

/** Item A at 10.00 in the catalog and the store; its recommendation to 10.99 accepted and approved. */
const approved = approvedWriteBack(start)

const statusOf = (id: Parameters<Recommendations["Service"]["get"]>[1]) =>
  Effect.map(
    Recommendations.use((recommendations) => recommendations.get(wsA, id)),
    (recommendation) => recommendation.status
  )

const outboxRow = (id: Parameters<WriteBackOutbox["Service"]["getByRecommendation"]>[1]) =>
  Effect.map(
    WriteBackOutbox.use((outbox) => outbox.getByRecommendation(wsA, id)),
    Option.getOrNull
  )

const openAlertKinds = Alerts.use((alerts) =>
  Effect.map(alerts.list(wsA, { status: "open", kind: null, itemId: null }, { limit: 50, cursor: null }), (page) =>
    page.items.map((alert) => [alert.kind, alert.severity, alert.itemId])
  )
)

describe("WriteBackDelivery", () => {
  it.effect("applied: the store is written once, the recommendation is applied and the catalog follows", () =>
    Effect.gen(function* () {
      const { item, recommendation, writeBack } = yield* approved
      const delivery = yield* WriteBackDelivery
      const store = yield* MemoryStore
      const report = yield* delivery.deliverOne(writeBack)
      assert.strictEqual(report.outcome, "applied")
      assert.strictEqual(yield* statusOf(recommendation.id), "applied")
      const row = yield* outboxRow(recommendation.id)
      assert.deepStrictEqual([row?.status, row?.attempts, row?.appliedAt], ["applied", 1, start])
      assert.deepStrictEqual(
        (yield* store.writes).map((write) => [write.variantRef, write.idempotencyKey, write.oldPrice, write.newPrice]),
        [["var-A", recommendation.id, 1000, 1099]]
      )
      const catalogItem = Option.getOrNull(yield* CatalogRepository.use((catalog) => catalog.get(wsA, item.id)))
      assert.strictEqual(catalogItem?.price, 1099)
      const last = (yield* auditOf(wsA)).at(-1)
      assert.deepStrictEqual(
        [last?.action, last?.actor, last?.beforeStatus, last?.afterStatus],
        ["recommendation.write_back_applied", "system:write-back", "approved", "applied"]
      )
      assert.strictEqual((yield* delivery.deliverOne(writeBack)).outcome, "not_claimed")
      assert.strictEqual(yield* store.deliveries, 1)
    }).pipe(Effect.provide(useCases))
  )

  it.effect("already applied: a store already at the new price is not written again", () =>
    Effect.gen(function* () {
      const { recommendation } = yield* approved
      const store = yield* MemoryStore
      yield* store.setPrice(wsA, "var-A", 1099)
      const reports = yield* (yield* WriteBackDelivery).deliverDue("worker-1", 10)
      assert.deepStrictEqual(
        reports.map((report) => report.outcome),
        ["already_applied"]
      )
      assert.strictEqual(yield* statusOf(recommendation.id), "applied")
      assert.strictEqual((yield* store.writes).length, 0)
    }).pipe(Effect.provide(useCases))
  )

  it.effect("price drift: nothing is written, the write-back fails and a price_drift alert is raised", () =>
    Effect.gen(function* () {
      const { item, recommendation, writeBack } = yield* approved
      const store = yield* MemoryStore
      yield* store.setPrice(wsA, "var-A", 1050)
      assert.strictEqual((yield* (yield* WriteBackDelivery).deliverOne(writeBack)).outcome, "price_drift")
      assert.strictEqual(yield* statusOf(recommendation.id), "write_back_failed")
      assert.strictEqual((yield* outboxRow(recommendation.id))?.status, "failed")
      assert.deepStrictEqual(yield* openAlertKinds, [["price_drift", "warning", item.id]])
      assert.deepStrictEqual(Option.getOrNull(yield* store.priceOf(wsA, "var-A")), 1050)
    }).pipe(Effect.provide(useCases))
  )

  it.effect("rejected: the store refuses for good, the write-back fails with a write_back_failed alert", () =>
    Effect.gen(function* () {
      const { item, recommendation, writeBack } = yield* approved
      yield* (yield* MemoryStore).rejectNext(1, "variant archived")
      assert.strictEqual((yield* (yield* WriteBackDelivery).deliverOne(writeBack)).outcome, "rejected")
      assert.strictEqual(yield* statusOf(recommendation.id), "write_back_failed")
      assert.include((yield* outboxRow(recommendation.id))?.lastError ?? "", "variant archived")
      assert.deepStrictEqual(yield* openAlertKinds, [["write_back_failed", "critical", item.id]])
    }).pipe(Effect.provide(useCases))
  )

  it.effect("a store disconnected after the approval: the write-back is refused at once, not retried", () =>
    Effect.gen(function* () {
      const { item, recommendation, writeBack } = yield* approved
      yield* StoreConnectionRepository.use((stores) => stores.disconnect(wsA))
      assert.strictEqual((yield* (yield* WriteBackDelivery).deliverOne(writeBack)).outcome, "rejected")
      assert.strictEqual(yield* statusOf(recommendation.id), "write_back_failed")
      const row = yield* outboxRow(recommendation.id)
      assert.deepStrictEqual([row?.status, row?.attempts], ["failed", 1])
      assert.include(row?.lastError ?? "", "not connected")
      assert.strictEqual(yield* (yield* MemoryStore).deliveries, 0, "nothing reached the store")
      assert.deepStrictEqual(yield* openAlertKinds, [["write_back_failed", "critical", item.id]])
    }).pipe(Effect.provide(useCases))
  )

  it.effect("an unavailable store is retried with growing, jittered delays, then given up after maxAttempts", () =>
    Effect.gen(function* () {
      const { item, recommendation } = yield* approved
      const delivery = yield* WriteBackDelivery
      yield* (yield* MemoryStore).failNext(10, "503 from the store")
      assert.deepStrictEqual(
        (yield* delivery.deliverDue("worker-1", 10)).map((r) => r.outcome),
        ["retry_scheduled"]
      )
      const first = yield* outboxRow(recommendation.id)
      const firstDelay = (first?.nextAttemptAt ?? 0) - start
      assert.deepStrictEqual([first?.status, first?.attempts, first?.lastError], ["pending", 1, "503 from the store"])
      assert.isTrue(firstDelay >= testDelivery.baseDelayMs / 2 && firstDelay <= testDelivery.baseDelayMs)
      assert.deepStrictEqual(yield* delivery.deliverDue("worker-1", 10), [])
      yield* TestClock.adjust(testDelivery.baseDelayMs)
      assert.deepStrictEqual(
        (yield* delivery.deliverDue("worker-1", 10)).map((r) => r.outcome),
        ["retry_scheduled"]
      )
      const second = yield* outboxRow(recommendation.id)
      const secondDelay = (second?.nextAttemptAt ?? 0) - (start + testDelivery.baseDelayMs)
      assert.isTrue(secondDelay >= testDelivery.baseDelayMs && secondDelay <= 2 * testDelivery.baseDelayMs)
      yield* TestClock.adjust(2 * testDelivery.baseDelayMs)
      assert.deepStrictEqual(
        (yield* delivery.deliverDue("worker-1", 10)).map((r) => r.outcome),
        ["gave_up"]
      )
      const last = yield* outboxRow(recommendation.id)
      assert.deepStrictEqual([last?.status, last?.attempts], ["failed", testDelivery.maxAttempts])
      assert.strictEqual(yield* statusOf(recommendation.id), "write_back_failed")
      assert.deepStrictEqual(yield* openAlertKinds, [["write_back_failed", "critical", item.id]])
      assert.deepStrictEqual(
        (yield* auditOf(wsA)).map((event) => event.action),
        [
          "recommendation.accept",
          "recommendation.approve",
          "write_back.retry",
          "write_back.retry",
          "recommendation.write_back_failed"
        ]
      )
    }).pipe(Effect.provide(useCases))
  )

  it.effect("a store back after a retry applies the price", () =>
    Effect.gen(function* () {
      const { recommendation, writeBack } = yield* approved
      const delivery = yield* WriteBackDelivery
      yield* (yield* MemoryStore).failNext(1)
      assert.strictEqual((yield* delivery.deliverOne(writeBack)).outcome, "retry_scheduled")
      yield* TestClock.adjust(testDelivery.baseDelayMs)
      assert.deepStrictEqual(
        (yield* delivery.deliverDue("worker-1", 10)).map((r) => r.outcome),
        ["applied"]
      )
      assert.strictEqual(yield* statusOf(recommendation.id), "applied")
    }).pipe(Effect.provide(useCases))
  )
})
