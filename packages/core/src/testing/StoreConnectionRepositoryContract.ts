import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import type { StoreConnection } from "../stores/StoreConnection.ts"
import { StoreConnectionRepository } from "../stores/StoreConnectionRepository.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { aStoreConnection, fixtureNow, minuteMs } from "./Fixtures.ts"
import { assertPagingAmong } from "./PagingContract.ts"
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

    it.effect("list pages every workspace's connection, newest connection first, by status when asked", () =>
      Effect.gen(function* () {
        const connections = yield* StoreConnectionRepository
        const stored: Array<StoreConnection> = []
        for (const offset of [2, 0, 2, 5]) {
          const workspaceId = (yield* seedWorkspace()).id
          const connection = aStoreConnection({ workspaceId, connectedAt: fixtureNow + offset * minuteMs })
          yield* connections.connect(connection, offset === 5 ? "shpat_secret" : null)
          stored.push(connection)
        }
        const [gone] = stored
        if (gone !== undefined) yield* connections.disconnect(gone.workspaceId)
        const listed = stored.map((connection) =>
          connection.workspaceId === gone?.workspaceId ? { ...connection, status: "disconnected" as const } : connection
        )
        const key = (connection: StoreConnection) => ({ createdAt: connection.connectedAt, id: connection.workspaceId })
        yield* assertPagingAmong((page) => connections.list({ status: null }, page), key, listed.map(key), 2)
        yield* assertPagingAmong(
          (page) => connections.list({ status: "connected" }, page),
          key,
          listed.filter((connection) => connection.status === "connected").map(key),
          1
        )
        const disconnected = yield* connections.list({ status: "disconnected" }, { limit: 100, cursor: null })
        assert.isTrue(disconnected.items.every((connection) => connection.status === "disconnected"))
        assert.deepStrictEqual(
          disconnected.items.filter((connection) => connection.workspaceId === gone?.workspaceId),
          listed.slice(0, 1)
        )
      })
    )
  })
