import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { initialSyncState, type StoreSyncState } from "../stores/StoreSyncState.ts"
import { StoreSyncStateRepository } from "../stores/StoreSyncStateRepository.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { fixtureNow } from "./Fixtures.ts"
import { seedWorkspace } from "./Seed.ts"

export type StoreSyncStateContractServices = StoreSyncStateRepository | WorkspaceRepository | IdGenerator

/** The StoreSyncStateRepository port's contract: every adapter must pass it. */
export const storeSyncStateRepositoryContract = <E>(
  name: string,
  services: Layer.Layer<StoreSyncStateContractServices, E>
) =>
  layer(services)(`StoreSyncStateRepository contract (${name})`, (it) => {
    it.effect("saves a workspace's state, replaces it, and keeps workspaces apart", () =>
      Effect.gen(function* () {
        const repository = yield* StoreSyncStateRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        assert.isTrue(Option.isNone(yield* repository.get(workspace.id)))
        const pending: StoreSyncState = {
          ...initialSyncState(workspace.id),
          pending: { ref: "gid://shopify/BulkOperation/1", since: null, startedAt: fixtureNow }
        }
        yield* repository.save(pending)
        assert.deepStrictEqual(yield* repository.get(workspace.id), Option.some(pending))
        const applied: StoreSyncState = {
          workspaceId: workspace.id,
          syncedUpTo: fixtureNow,
          fullSyncedUpTo: fixtureNow - 1000,
          pending: null,
          last: {
            trigger: "schedule",
            full: true,
            startedAt: fixtureNow,
            finishedAt: fixtureNow + 5000,
            requestedBy: "system:schedule",
            summary: {
              created: 2,
              updated: 1,
              priceChanged: 1,
              costChanged: 0,
              otherChanged: 1,
              unchanged: 4,
              stalePrice: 0,
              rejected: [{ line: 3, error: "variant 3 has no sku" }],
              rejectedTotal: 1
            },
            sales: { lines: 40, linesLeftOut: 1, itemsUpdated: 3, itemsUnchanged: 2, skusNotInCatalog: 1 }
          },
          // The orders' read resumes on its own: its pending read survives next to the catalog's.
          orders: {
            syncedUpTo: fixtureNow - 2000,
            fullSyncedUpTo: fixtureNow - 2000,
            pending: { ref: "gid://shopify/BulkOperation/2", since: fixtureNow - 3000, startedAt: fixtureNow }
          }
        }
        yield* repository.save(applied)
        assert.deepStrictEqual(yield* repository.get(workspace.id), Option.some(applied))
        assert.isTrue(Option.isNone(yield* repository.get(other.id)))
      })
    )
  })
