import { assert, describe, it } from "@effect/vitest"
import { WorkspaceId } from "@margin/core/kernel/Ids"
import { aStoreConnection, aWriteBack } from "@margin/core/testing/Fixtures"
import { StoreWriteBack, type StoreWriteResult } from "@margin/core/writeback/StoreWriteBack"
import { Effect, Layer } from "effect"
import { SandboxStore } from "./SandboxStore.ts"
import { ShopifyStore } from "./ShopifyStore.ts"
import * as StoreRouter from "./StoreRouter.ts"

// Each stub answers with its own name, so the test sees which adapter a delivery reached.
const answering = (name: string) => ({
  deliver: () => Effect.succeed<StoreWriteResult>({ _tag: "Rejected", message: name })
})

const router = StoreRouter.layer.pipe(
  Layer.provide([Layer.succeed(SandboxStore, answering("sandbox")), Layer.succeed(ShopifyStore, answering("shopify"))])
)

const messageOf = (result: StoreWriteResult) => (result._tag === "Rejected" ? result.message : result._tag)

describe("StoreRouter", () => {
  it.effect("delivers to the adapter of the connection's platform", () =>
    Effect.gen(function* () {
      const store = yield* StoreWriteBack
      const sandbox = yield* store.deliver(aStoreConnection({ platform: "sandbox" }), aWriteBack())
      const shopify = yield* store.deliver(aStoreConnection({ platform: "shopify", shop: "acme" }), aWriteBack())
      assert.deepStrictEqual([messageOf(sandbox), messageOf(shopify)], ["sandbox", "shopify"])
    }).pipe(Effect.provide(router))
  )

  it.effect("never writes to a disconnected store", () =>
    Effect.gen(function* () {
      const store = yield* StoreWriteBack
      const result = yield* store.deliver(aStoreConnection({ status: "disconnected" }), aWriteBack())
      assert.strictEqual(messageOf(result), "the store is not connected")
    }).pipe(Effect.provide(router))
  )

  it.effect("never delivers a write-back to another workspace's store", () =>
    Effect.gen(function* () {
      const store = yield* StoreWriteBack
      const result = yield* store.deliver(aStoreConnection({ workspaceId: WorkspaceId.make("ws_other") }), aWriteBack())
      assert.include(messageOf(result), "belongs to another workspace")
    }).pipe(Effect.provide(router))
  )
})
