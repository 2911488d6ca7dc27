import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { WorkspaceId, WriteBackId } from "../kernel/Ids.ts"
import { StoreWriteBack } from "../writeback/StoreWriteBack.ts"
import { aWriteBack, aWriteBackPayload } from "./Fixtures.ts"
import { freshId } from "./Seed.ts"
import { StoreHarness } from "./StoreHarness.ts"

export type StoreWriteBackContractServices = StoreWriteBack | StoreHarness | IdGenerator

/** A variant at 1000 and the write-back that moves it to 1099. */
const scene = Effect.fnUntraced(function* () {
  const harness = yield* StoreHarness
  const workspaceId = yield* freshId("workspace", WorkspaceId.make)
  const connection = yield* harness.connection(workspaceId)
  const variantRef = yield* harness.newVariant(workspaceId, 1000)
  const writeBack = aWriteBack({
    id: yield* freshId("writeBack", WriteBackId.make),
    workspaceId,
    payload: aWriteBackPayload({ storeVariantRef: variantRef, oldPrice: 1000, newPrice: 1099 })
  })
  const price = harness.priceOf(workspaceId, variantRef)
  return { harness, workspaceId, connection, variantRef, writeBack, price }
})

/** The StoreWriteBack port's contract (read-compare-write): every store adapter must pass it. */
export const storeWriteBackContract = <E>(name: string, services: Layer.Layer<StoreWriteBackContractServices, E>) =>
  layer(services)(`StoreWriteBack contract (${name})`, (it) => {
    it.effect("a variant at the old price is written and Applied", () =>
      Effect.gen(function* () {
        const store = yield* StoreWriteBack
        const { connection, writeBack, price } = yield* scene()
        assert.deepStrictEqual(yield* store.deliver(connection, writeBack), { _tag: "Applied" })
        assert.deepStrictEqual(yield* price, Option.some(1099))
      })
    )

    it.effect("a repeated delivery is AlreadyApplied and writes nothing more", () =>
      Effect.gen(function* () {
        const store = yield* StoreWriteBack
        const { connection, writeBack, price } = yield* scene()
        yield* store.deliver(connection, writeBack)
        assert.deepStrictEqual(yield* store.deliver(connection, writeBack), { _tag: "AlreadyApplied" })
        assert.deepStrictEqual(yield* price, Option.some(1099))
      })
    )

    it.effect("a price changed behind the service's back is PriceDrift and is left alone", () =>
      Effect.gen(function* () {
        const store = yield* StoreWriteBack
        const { harness, workspaceId, variantRef, connection, writeBack, price } = yield* scene()
        yield* harness.setPrice(workspaceId, variantRef, 1250)
        assert.deepStrictEqual(yield* store.deliver(connection, writeBack), { _tag: "PriceDrift", observedPrice: 1250 })
        assert.deepStrictEqual(yield* price, Option.some(1250))
      })
    )

    it.effect("an item without a store variant is Rejected", () =>
      Effect.gen(function* () {
        const store = yield* StoreWriteBack
        const { connection, writeBack } = yield* scene()
        const unlinked = { ...writeBack, payload: { ...writeBack.payload, storeVariantRef: null } }
        assert.strictEqual((yield* store.deliver(connection, unlinked))._tag, "Rejected")
      })
    )
  })
