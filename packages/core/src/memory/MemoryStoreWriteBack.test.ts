import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import * as MemoryIdGenerator from "../../src/memory/MemoryIdGenerator.ts"
import { MemoryStore } from "../../src/memory/MemoryStore.ts"
import * as MemoryStoreWriteBack from "../../src/memory/MemoryStoreWriteBack.ts"
import { aStoreConnection, aWriteBack, fixtureIds } from "../testing/Fixtures.ts"
import { StoreHarness } from "../testing/StoreHarness.ts"
import { storeWriteBackContract } from "../testing/StoreWriteBackContract.ts"
import { StoreWriteBack } from "../writeback/StoreWriteBack.ts"

/** The contract's harness over the fake store: variants are `variant-<n>`. */
const harness = Layer.effect(
  StoreHarness,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    let variants = 0
    return StoreHarness.of({
      connection: (workspaceId) => Effect.succeed(aStoreConnection({ workspaceId })),
      newVariant: (workspaceId, price) =>
        Effect.suspend(() => {
          const ref = `variant-${++variants}`
          return Effect.as(store.setPrice(workspaceId, ref, price), ref)
        }),
      setPrice: store.setPrice,
      priceOf: store.priceOf
    })
  })
)

const services = Layer.mergeAll(MemoryStoreWriteBack.layer, harness, MemoryIdGenerator.layer).pipe(
  Layer.provideMerge(MemoryStore.layer)
)

storeWriteBackContract("memory", services)

const seeded = Effect.gen(function* () {
  const store = yield* MemoryStore
  yield* store.setPrice(fixtureIds.workspace, "variant-001", 1000)
  return store
})

describe("MemoryStore knobs", () => {
  it.effect("records every accepted write and counts every delivery", () =>
    Effect.gen(function* () {
      const store = yield* seeded
      const writeBack = yield* StoreWriteBack
      yield* writeBack.deliver(aStoreConnection(), aWriteBack())
      yield* writeBack.deliver(aStoreConnection(), aWriteBack())
      assert.strictEqual(yield* store.deliveries, 2)
      assert.deepStrictEqual(yield* store.writes, [
        {
          workspaceId: fixtureIds.workspace,
          variantRef: "variant-001",
          writeBackId: fixtureIds.writeBack,
          idempotencyKey: fixtureIds.recommendation,
          oldPrice: 1000,
          newPrice: 1099
        }
      ])
    }).pipe(Effect.provide(services))
  )

  it.effect("failNext makes the next deliveries StoreUnavailable without touching the store", () =>
    Effect.gen(function* () {
      const store = yield* seeded
      const writeBack = yield* StoreWriteBack
      yield* store.failNext(2, "503 from the store")
      const first = yield* Effect.flip(writeBack.deliver(aStoreConnection(), aWriteBack()))
      assert.deepStrictEqual([first._tag, first.message], ["StoreUnavailable", "503 from the store"])
      yield* Effect.flip(writeBack.deliver(aStoreConnection(), aWriteBack()))
      assert.deepStrictEqual(yield* store.priceOf(fixtureIds.workspace, "variant-001"), Option.some(1000))
      assert.deepStrictEqual(yield* writeBack.deliver(aStoreConnection(), aWriteBack()), { _tag: "Applied" })
      assert.strictEqual(yield* store.deliveries, 3)
    }).pipe(Effect.provide(services))
  )

  it.effect("rejectNext refuses the next deliveries for good", () =>
    Effect.gen(function* () {
      const store = yield* seeded
      const writeBack = yield* StoreWriteBack
      yield* store.rejectNext(1, "variant archived")
      assert.deepStrictEqual(yield* writeBack.deliver(aStoreConnection(), aWriteBack()), {
        _tag: "Rejected",
        message: "variant archived"
      })
      assert.deepStrictEqual(yield* writeBack.deliver(aStoreConnection(), aWriteBack()), { _tag: "Applied" })
    }).pipe(Effect.provide(services))
  )

  it.effect("an unknown variant or a disconnected store is Rejected", () =>
    Effect.gen(function* () {
      const writeBack = yield* StoreWriteBack
      assert.strictEqual((yield* writeBack.deliver(aStoreConnection(), aWriteBack()))._tag, "Rejected")
      yield* seeded
      const disconnected = aStoreConnection({ status: "disconnected" })
      assert.strictEqual((yield* writeBack.deliver(disconnected, aWriteBack()))._tag, "Rejected")
    }).pipe(Effect.provide(services))
  )
})
