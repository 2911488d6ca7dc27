import { assert, layer } from "@effect/vitest"
import { IdGenerator } from "@margin/core/kernel/IdGenerator"
import { WorkspaceId, WriteBackId } from "@margin/core/kernel/Ids"
import { CurrencyCode } from "@margin/core/kernel/Money"
import { aWriteBack, aWriteBackPayload } from "@margin/core/testing/Fixtures"
import { seedItem } from "@margin/core/testing/Seed"
import { StoreHarness } from "@margin/core/testing/StoreHarness"
import { storeWriteBackContract } from "@margin/core/testing/StoreWriteBackContract"
import { StoreWriteBack, type StoreWriteResult } from "@margin/core/writeback/StoreWriteBack"
import { PgAdapters, PgSandboxStore } from "@margin/postgres"
import { Effect, Exit } from "effect"
import { TestClock } from "effect/testing"
import { SandboxFaults } from "./SandboxFaults.ts"
import { deliverInChildProcess, sandboxScene, sandboxTestStore } from "./testing/SandboxTestStore.ts"

storeWriteBackContract("sandbox", sandboxTestStore)

/** How many deliveries answered each `_tag`. */
const tally = (results: ReadonlyArray<StoreWriteResult>): Record<string, number> =>
  Object.fromEntries([...Map.groupBy(results, (result) => result._tag)].map(([tag, answers]) => [tag, answers.length]))

layer(sandboxTestStore, { timeout: "2 minutes" })("SandboxStore", (it) => {
  it.effect("records every write it accepts, per workspace", () =>
    Effect.gen(function* () {
      const store = yield* StoreWriteBack
      const { workspaceId, connection, variantRef, writeBack } = yield* sandboxScene(1000, 1200)
      const other = yield* sandboxScene(500, 450)
      yield* store.deliver(connection, writeBack)
      yield* store.deliver(other.connection, other.writeBack)
      const writes = yield* PgSandboxStore.listWrites(workspaceId)
      assert.deepStrictEqual(
        writes.map(({ variantRef, oldPrice, newPrice, idempotencyKey }) => ({
          variantRef,
          oldPrice,
          newPrice,
          idempotencyKey
        })),
        [{ variantRef, oldPrice: 1000, newPrice: 1200, idempotencyKey: writeBack.idempotencyKey }]
      )
      assert.strictEqual((yield* PgSandboxStore.listWrites(other.workspaceId)).length, 1)
    })
  )

  it.effect("concurrent deliveries of one write-back write once: the row lock serializes them", () =>
    Effect.gen(function* () {
      const store = yield* StoreWriteBack
      const { workspaceId, connection, writeBack } = yield* sandboxScene(1000, 1200)
      const results = yield* Effect.all(
        Array.from({ length: 20 }, () => store.deliver(connection, writeBack)),
        { concurrency: "unbounded" }
      )
      assert.deepStrictEqual(tally(results), { Applied: 1, AlreadyApplied: 19 })
      assert.strictEqual((yield* PgSandboxStore.listWrites(workspaceId)).length, 1)
    })
  )

  it.effect("two approvals racing from the same old price: one writes, the other sees drift", () =>
    Effect.gen(function* () {
      const store = yield* StoreWriteBack
      const { workspaceId, connection, variantRef, writeBackTo } = yield* sandboxScene(1000, 1200)
      const results = yield* Effect.all(
        [store.deliver(connection, writeBackTo(1000, 1100)), store.deliver(connection, writeBackTo(1000, 1200))],
        { concurrency: "unbounded" }
      )
      assert.deepStrictEqual(tally(results), { Applied: 1, PriceDrift: 1 })
      const [write] = yield* PgSandboxStore.listWrites(workspaceId)
      assert.strictEqual(yield* PgSandboxStore.sandboxPrice(workspaceId, variantRef), write?.newPrice)
    })
  )

  it.effect("an item without a store variant ref is known to the sandbox by its sku", () =>
    Effect.gen(function* () {
      const store = yield* StoreWriteBack
      const { workspaceId, connection, variantRef, writeBack } = yield* sandboxScene(1000, 1200)
      const bySku = { ...writeBack, payload: { ...writeBack.payload, sku: variantRef, storeVariantRef: null } }
      const result = yield* store.deliver(connection, bySku)
      assert.strictEqual(result._tag, "Applied")
      assert.strictEqual(yield* PgSandboxStore.sandboxPrice(workspaceId, variantRef), 1200)
    })
  )

  it.effect("approving an item imported after the sandbox was connected writes back: the store has the product", () =>
    Effect.gen(function* () {
      const store = yield* StoreWriteBack
      const harness = yield* StoreHarness
      const ids = yield* IdGenerator
      const workspaceId = WorkspaceId.make(yield* ids.next("workspace"))
      // Connected first (nothing to copy yet), imported second: the natural order.
      const connection = yield* harness.connection(workspaceId)
      const item = yield* seedItem(workspaceId, { sku: `LATE-${workspaceId}`, price: 1500 }).pipe(
        Effect.provide(PgAdapters.layer),
        Effect.orDie
      )
      const writeBack = aWriteBack({
        id: WriteBackId.make(`wb_${item.id}`),
        workspaceId,
        idempotencyKey: `rec_${item.id}`,
        payload: aWriteBackPayload({
          itemId: item.id,
          sku: item.sku,
          storeProductRef: null,
          storeVariantRef: null,
          currency: item.currency,
          oldPrice: 1500,
          newPrice: 1650
        })
      })
      assert.deepStrictEqual(yield* store.deliver(connection, writeBack), { _tag: "Applied" })
      assert.strictEqual(yield* PgSandboxStore.sandboxPrice(workspaceId, item.sku), 1650)
      assert.deepStrictEqual(
        (yield* PgSandboxStore.listWrites(workspaceId)).map(({ variantRef, oldPrice, newPrice }) => [
          variantRef,
          oldPrice,
          newPrice
        ]),
        [[item.sku, 1500, 1650]]
      )
      assert.deepStrictEqual(yield* store.deliver(connection, writeBack), { _tag: "AlreadyApplied" })
    })
  )

  it.effect("an unknown variant or another currency is refused", () =>
    Effect.gen(function* () {
      const store = yield* StoreWriteBack
      const { connection, writeBack } = yield* sandboxScene()
      const unknown = yield* store.deliver(connection, {
        ...writeBack,
        payload: { ...writeBack.payload, storeVariantRef: "no-such-variant" }
      })
      const euros = yield* store.deliver(connection, {
        ...writeBack,
        payload: { ...writeBack.payload, currency: CurrencyCode.make("EUR") }
      })
      assert.deepStrictEqual([unknown._tag, euros._tag], ["Rejected", "Rejected"])
    })
  )

  it.effect("an injected outage answers StoreUnavailable and writes nothing", () =>
    Effect.gen(function* () {
      const store = yield* StoreWriteBack
      const faults = yield* SandboxFaults
      const { workspaceId, connection, writeBack } = yield* sandboxScene()
      yield* faults.failNext(2)
      const first = yield* Effect.flip(store.deliver(connection, writeBack))
      yield* Effect.flip(store.deliver(connection, writeBack))
      assert.strictEqual(first._tag, "StoreUnavailable")
      assert.strictEqual((yield* PgSandboxStore.listWrites(workspaceId)).length, 0)
      assert.deepStrictEqual(yield* store.deliver(connection, writeBack), { _tag: "Applied" })
    })
  )

  it.effect("a crash after the commit keeps the write; the redelivery finds it applied", () =>
    Effect.gen(function* () {
      const store = yield* StoreWriteBack
      const faults = yield* SandboxFaults
      const { workspaceId, connection, writeBack } = yield* sandboxScene()
      yield* faults.crashAfterNextWrite()
      const crashed = yield* Effect.exit(store.deliver(connection, writeBack))
      assert.isTrue(Exit.hasDies(crashed))
      assert.deepStrictEqual(yield* store.deliver(connection, writeBack), { _tag: "AlreadyApplied" })
      assert.strictEqual((yield* PgSandboxStore.listWrites(workspaceId)).length, 1)
    })
  )

  it.effect("a caller that times out after the store committed: the write stands, once", () =>
    Effect.gen(function* () {
      const store = yield* StoreWriteBack
      const faults = yield* SandboxFaults
      const { workspaceId, connection, writeBack } = yield* sandboxScene()
      yield* faults.delayNext(1, "2 seconds", "after_write")
      const timedOut = yield* Effect.exit(
        TestClock.withLive(store.deliver(connection, writeBack).pipe(Effect.timeout("200 millis")))
      )
      assert.isTrue(Exit.isFailure(timedOut))
      assert.deepStrictEqual(yield* store.deliver(connection, writeBack), { _tag: "AlreadyApplied" })
      assert.strictEqual((yield* PgSandboxStore.listWrites(workspaceId)).length, 1)
    })
  )

  it.effect(
    "SANDBOX_CRASH_AFTER_WRITE: the process dies by SIGKILL right after the commit, the write is kept",
    () =>
      Effect.gen(function* () {
        const store = yield* StoreWriteBack
        const { workspaceId, connection, writeBack } = yield* sandboxScene()
        const crashed = yield* deliverInChildProcess(connection, writeBack, { SANDBOX_CRASH_AFTER_WRITE: "true" })
        assert.deepStrictEqual([crashed.signal, crashed.result], ["SIGKILL", null], crashed.output)
        assert.strictEqual((yield* PgSandboxStore.listWrites(workspaceId)).length, 1)
        // The restarted delivery (here in this process) finds the price already moved: no second write.
        assert.deepStrictEqual(yield* store.deliver(connection, writeBack), { _tag: "AlreadyApplied" })
        assert.strictEqual((yield* PgSandboxStore.listWrites(workspaceId)).length, 1)
      }),
    { timeout: 60_000 }
  )

  it.effect(
    "SANDBOX_FAIL_FIRST: a worker process answers StoreUnavailable for its first deliveries",
    () =>
      Effect.gen(function* () {
        const { workspaceId, connection, writeBack } = yield* sandboxScene()
        const failed = yield* deliverInChildProcess(connection, writeBack, { SANDBOX_FAIL_FIRST: "1" })
        assert.notStrictEqual(failed.code, 0)
        assert.include(failed.output, "StoreUnavailable")
        const delivered = yield* deliverInChildProcess(connection, writeBack, {})
        assert.deepStrictEqual(delivered.result, { _tag: "Applied" }, delivered.output)
        assert.strictEqual((yield* PgSandboxStore.listWrites(workspaceId)).length, 1)
      }),
    { timeout: 60_000 }
  )
})
