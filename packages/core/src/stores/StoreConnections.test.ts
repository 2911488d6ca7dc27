import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { WorkspaceId } from "../kernel/Ids.ts"
import { aStoreConnection } from "../testing/Fixtures.ts"
import { auditOf, seedWorkspace, useCases, wsA } from "../testing/UseCases.ts"
import { StoreConnectionRepository } from "./StoreConnectionRepository.ts"
import { StoreConnections } from "./StoreConnections.ts"

const connections = Layer.provideMerge(StoreConnections.layer, useCases)

describe("StoreConnections", () => {
  it.effect("connects and disconnects, audited; a second disconnect changes and audits nothing", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "max")
      const service = yield* StoreConnections
      yield* service.connect(aStoreConnection({ workspaceId: wsA, connectedAt: 0 }), null, "system:test")
      const stored = yield* StoreConnectionRepository.use((stores) => stores.get(wsA))
      assert.strictEqual(Option.getOrThrow(stored).status, "connected")
      assert.isTrue(yield* service.disconnect(wsA, "system:test"))
      assert.isFalse(yield* service.disconnect(wsA, "system:test"))
      const events = (yield* auditOf(wsA)).map((e) => [e.action, e.beforeStatus, e.afterStatus])
      assert.deepStrictEqual(events, [
        ["store.connect", null, "connected"],
        ["store.disconnect", "connected", "disconnected"]
      ])
    }).pipe(Effect.provide(connections))
  )

  it.effect("an unknown workspace is not found", () =>
    Effect.gen(function* () {
      const service = yield* StoreConnections
      const unknown = WorkspaceId.make("ws_unknown")
      const connect = yield* Effect.flip(service.connect(aStoreConnection({ workspaceId: unknown }), null, "x"))
      const disconnect = yield* Effect.flip(service.disconnect(unknown, "x"))
      assert.deepStrictEqual([connect._tag, disconnect._tag], ["ResourceNotFound", "ResourceNotFound"])
    }).pipe(Effect.provide(connections))
  )
})
