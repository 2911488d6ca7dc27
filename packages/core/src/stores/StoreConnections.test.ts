import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import type { Actor } from "../access/Actor.ts"
import { WorkspaceId } from "../kernel/Ids.ts"
import * as ScriptedStoreConnectionCheck from "../testing/ScriptedStoreConnectionCheck.ts"
import { acceptedShopifyToken } from "../testing/ScriptedStoreConnectionCheck.ts"
import { auditOf, seedWorkspace, useCases, wsA } from "../testing/UseCases.ts"
import { StoreConnectionRepository } from "./StoreConnectionRepository.ts"
import { StoreConnections } from "./StoreConnections.ts"

const connections = StoreConnections.layer.pipe(
  Layer.provide(ScriptedStoreConnectionCheck.layer),
  Layer.provideMerge(useCases)
)
const operator: Actor = { _tag: "SystemActor", name: "test" }
const sandbox = { platform: "sandbox", shop: null, accessToken: null } as const

describe("StoreConnections", () => {
  it.effect("connects and disconnects, audited; a second disconnect changes and audits nothing", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "max")
      const service = yield* StoreConnections
      yield* service.connect(wsA, sandbox, operator)
      const stored = yield* StoreConnectionRepository.use((stores) => stores.get(wsA))
      assert.strictEqual(Option.getOrThrow(stored).status, "connected")
      assert.isTrue(yield* service.disconnect(wsA, operator))
      assert.isFalse(yield* service.disconnect(wsA, operator))
      const events = (yield* auditOf(wsA)).map((e) => [e.action, e.beforeStatus, e.afterStatus, e.actor])
      assert.deepStrictEqual(events, [
        ["store.connect", null, "connected", "system:test"],
        ["store.disconnect", "connected", "disconnected", "system:test"]
      ])
    }).pipe(Effect.provide(connections))
  )

  it.effect("a Shopify store is checked first: refused credentials store and audit nothing", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "max")
      const service = yield* StoreConnections
      const refused = yield* Effect.flip(
        service.connect(
          wsA,
          { platform: "shopify", shop: "acme.myshopify.com", accessToken: Redacted.make("shpat_wrong") },
          operator
        )
      )
      assert.strictEqual(refused._tag, "StoreConnectionRefused")
      assert.isTrue(Option.isNone(yield* StoreConnectionRepository.use((stores) => stores.get(wsA))))
      assert.deepStrictEqual(yield* auditOf(wsA), [])
      const connected = yield* service.connect(
        wsA,
        { platform: "shopify", shop: "acme.myshopify.com", accessToken: Redacted.make(acceptedShopifyToken) },
        operator
      )
      assert.strictEqual(connected.connection.shop, "acme.myshopify.com")
    }).pipe(Effect.provide(connections))
  )

  it.effect("an unknown workspace is not found", () =>
    Effect.gen(function* () {
      const service = yield* StoreConnections
      const unknown = WorkspaceId.make("ws_unknown")
      const connect = yield* Effect.flip(service.connect(unknown, sandbox, operator))
      const disconnect = yield* Effect.flip(service.disconnect(unknown, operator))
      assert.deepStrictEqual([connect._tag, disconnect._tag], ["ResourceNotFound", "ResourceNotFound"])
    }).pipe(Effect.provide(connections))
  )
})
