import { assert, layer } from "@effect/vitest"
import { AuditTrail } from "@margin/core/audit/AuditTrail"
import { CatalogRepository } from "@margin/core/catalog/CatalogRepository"
import type { WorkspaceId } from "@margin/core/kernel/Ids"
import { StoreConnectionRepository } from "@margin/core/stores/StoreConnectionRepository"
import { defaultStoreSyncOptions, StoreSyncs } from "@margin/core/stores/StoreSyncs"
import { catalogBySku } from "@margin/core/testing/CatalogItems"
import { aCatalogItemInput, aStoreConnection } from "@margin/core/testing/Fixtures"
import { seedWorkspace } from "@margin/core/testing/Seed"
import { PgSandboxStore } from "@margin/postgres"
import * as PgTestAdapters from "@margin/postgres/testing/PgTestAdapters"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { SandboxCatalogSource } from "./SandboxCatalogSource.ts"
import * as StoreCatalogRouter from "./StoreCatalogRouter.ts"

const services = StoreSyncs.layerWith(defaultStoreSyncOptions).pipe(
  Layer.provide(AuditTrail.layer),
  Layer.provideMerge(
    StoreCatalogRouter.forPlatform(SandboxCatalogSource).pipe(Layer.provide(SandboxCatalogSource.layer))
  ),
  Layer.provideMerge(PgTestAdapters.layer)
)

const operator = { _tag: "SystemActor", name: "test" } as const

const syncOf = (workspaceId: WorkspaceId) =>
  StoreSyncs.use((syncs) => syncs.sync({ workspaceId, trigger: "manual", actor: operator }))

const itemsOf = catalogBySku

layer(services, { timeout: 120_000 })("SandboxCatalogSource (sandbox store sync)", (it) => {
  it.effect("a price changed in the sandbox store arrives in the catalog; everything else is kept", () =>
    Effect.gen(function* () {
      yield* TestClock.adjust(60_000)
      const workspace = yield* seedWorkspace()
      yield* StoreConnectionRepository.use((connections) =>
        connections.connect(aStoreConnection({ workspaceId: workspace.id, platform: "sandbox" }), null)
      )
      yield* CatalogRepository.use((catalog) =>
        catalog.upsertMany(
          workspace.id,
          [
            aCatalogItemInput({ sku: "A", price: 1000, storeVariantRef: "v-A" }),
            aCatalogItemInput({ sku: "B", price: 2000 })
          ],
          0
        )
      )
      yield* PgSandboxStore.seedVariants(workspace.id, [
        { variantRef: "v-A", price: 1000, currency: "USD" },
        { variantRef: "B", price: 2000, currency: "USD" },
        { variantRef: "orphan", price: 5, currency: "USD" }
      ])
      const first = yield* syncOf(workspace.id)
      assert.deepStrictEqual([first.full, first.summary.unchanged, first.summary.created], [true, 2, 0])

      yield* TestClock.adjust(60 * 60_000)
      yield* PgSandboxStore.setPriceBehindOurBack(workspace.id, "B", 2250)
      yield* TestClock.adjust(60_000)
      const second = yield* syncOf(workspace.id)
      // A was seeded within the 5 minutes of overlap before the first sync: read again, unchanged.
      assert.deepStrictEqual([second.full, second.summary.priceChanged, second.summary.unchanged], [false, 1, 1])
      const items = yield* itemsOf(workspace.id)
      const b = items.get("B")
      assert.deepStrictEqual([b?.price, b?.cost, b?.storeVariantRef, b?.title], [2250, 700, null, "Fixture mug"])
      assert.strictEqual(items.get("A")?.price, 1000)
    })
  )
})
