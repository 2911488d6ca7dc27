import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { IdGenerator } from "../src/ports/IdGenerator.ts"
import { StoreConnectionRepository } from "../src/ports/StoreConnectionRepository.ts"
import type { WorkspaceRepository } from "../src/ports/WorkspaceRepository.ts"
import { aStoreConnection, fixtureNow, minuteMs } from "./Fixtures.ts"
import { seedWorkspace } from "./Seed.ts"

export type StoreConnectionContractServices = StoreConnectionRepository | WorkspaceRepository | IdGenerator

/** The StoreConnectionRepository port's contract: every adapter must pass it. */
export const storeConnectionRepositoryContract = <E>(
  name: string,
  services: Layer.Layer<StoreConnectionContractServices, E>
) =>
  layer(services)(`StoreConnectionRepository contract (${name})`, (it) => {
    it.effect("connect, reconnect and disconnect one workspace's store", () =>
      Effect.gen(function* () {
        const connections = yield* StoreConnectionRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        assert.isTrue(Option.isNone(yield* connections.get(workspace.id)))
        const sandbox = aStoreConnection({ workspaceId: workspace.id })
        yield* connections.connect(sandbox, null)
        assert.deepStrictEqual(yield* connections.get(workspace.id), Option.some(sandbox))
        assert.isTrue(Option.isNone(yield* connections.get(other.id)))

        const shopify = aStoreConnection({
          workspaceId: workspace.id,
          platform: "shopify",
          shop: "fixture.myshopify.com",
          connectedAt: fixtureNow + minuteMs
        })
        yield* connections.connect(shopify, "shpat_secret")
        assert.deepStrictEqual(yield* connections.get(workspace.id), Option.some(shopify))

        assert.isFalse(yield* connections.disconnect(other.id))
        assert.isTrue(yield* connections.disconnect(workspace.id))
        const disconnected = yield* connections.get(workspace.id)
        assert.strictEqual(Option.getOrUndefined(disconnected)?.status, "disconnected")
        assert.isFalse(yield* connections.disconnect(workspace.id), "already disconnected")
        yield* connections.connect(sandbox, null)
        assert.deepStrictEqual(yield* connections.get(workspace.id), Option.some(sandbox))
      })
    )
  })
