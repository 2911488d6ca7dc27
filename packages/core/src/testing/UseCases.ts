/**
 * What the use-case tests share: every service over the in-memory adapters, and seeds that put a
 * workspace, its users, store, catalog, recommendations and alerts in place through the ports.
 * Seeded rows use fixed ids (`ws_a`, `usr_a`...), so provide `useCases` afresh to every test.
 */
import { Effect, HashMap, Layer } from "effect"
import { TestClock } from "effect/testing"
import type { Actor } from "../access/Actor.ts"
import { UserRepository } from "../access/UserRepository.ts"
import type { AlertFinding } from "../alerts/AlertFinding.ts"
import * as AlertMachine from "../alerts/AlertMachine.ts"
import { AlertRepository } from "../alerts/AlertRepository.ts"
import { Alerts } from "../alerts/Alerts.ts"
import type { AuditEvent } from "../audit/AuditEvent.ts"
import { AuditRepository } from "../audit/AuditRepository.ts"
import type { CatalogItem } from "../catalog/CatalogItem.ts"
import type { RepositoryError } from "../kernel/Errors.ts"
import { CatalogItemId, RecommendationId, RunId, TokenId, UserId, WorkspaceId } from "../kernel/Ids.ts"
import * as MemoryAdapters from "../memory/MemoryAdapters.ts"
import { MemoryDatabase } from "../memory/MemoryDatabase.ts"
import { MemoryStore } from "../memory/MemoryStore.ts"
import { RecommendationRepository } from "../recommendations/RecommendationRepository.ts"
import { Recommendations } from "../recommendations/Recommendations.ts"
import { RunExecutor } from "../runs/RunExecutor.ts"
import { Runs } from "../runs/Runs.ts"
import { StoreConnectionRepository } from "../stores/StoreConnectionRepository.ts"
import type { Plan } from "../workspaces/Plan.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { WorkspaceStatus } from "../workspaces/WorkspaceStatus.ts"
import { PriceChanges } from "../writeback/PriceChanges.ts"
import { WriteBackCancellation } from "../writeback/WriteBackCancellation.ts"
import { WriteBackDelivery } from "../writeback/WriteBackDelivery.ts"
import { aCatalogItem, aRecommendation, aStoreConnection, aUser, aWorkspace } from "./Fixtures.ts"

/** The write-back settings of the tests: few attempts, round delays. */
export const testDelivery = { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 60_000, leaseMs: 30_000 }

/** Every use case over one fresh in-memory database; provide it per test. */
export const useCases = PriceChanges.layer.pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      Recommendations.layer,
      Alerts.layer,
      Runs.layer,
      WorkspaceStatus.layer,
      RunExecutor.layerWith({ chunkSize: 2 }),
      WriteBackDelivery.layerWith(testDelivery),
      WriteBackCancellation.layer
    )
  ),
  Layer.provideMerge(MemoryAdapters.layer)
)

export const wsA = WorkspaceId.make("ws_a")
export const wsB = WorkspaceId.make("ws_b")
export const userA = UserId.make("usr_a")
export const userB = UserId.make("usr_b")
/** The run seeded recommendations claim to come from. */
export const seededRun = RunId.make("run_seed")

/** An analyst's API token issued by userA. */
export const tokenActor: Actor = { _tag: "TokenActor", tokenId: TokenId.make("tok_a"), userId: userA }
/** An approver on the mobile app. */
export const sessionActor: Actor = { _tag: "SessionActor", userId: userB }
export const systemActor: Actor = { _tag: "SystemActor", name: "test" }

export const seedWorkspace = (id: WorkspaceId, plan: Plan) =>
  WorkspaceRepository.use((workspaces) =>
    workspaces.insert(aWorkspace({ id, name: `workspace ${id}`, plan, createdAt: 0 }))
  )

export const seedUser = (id: UserId, emailConfirmed: boolean) =>
  UserRepository.use((users) => users.insert(aUser({ id, email: `${id}@example.com`, emailConfirmed, createdAt: 0 })))

export const connectStore = (workspaceId: WorkspaceId) =>
  StoreConnectionRepository.use((stores) => stores.connect(aStoreConnection({ workspaceId, connectedAt: 0 }), null))

export interface ItemSeed {
  readonly sku: string
  readonly price: number
  readonly cost: number | null
  readonly tags?: ReadonlyArray<string>
  readonly analysedCost?: number | null
}

/**
 * A catalog item with a store variant `var-<sku>` whose store price is the catalog price. Written
 * straight into the memory tables: an import (`upsertMany`) sets neither its id nor its analysed cost.
 */
export const seedItem = (workspaceId: WorkspaceId, seed: ItemSeed) =>
  Effect.gen(function* () {
    const item = aCatalogItem({
      id: CatalogItemId.make(`itm_${workspaceId}_${seed.sku}`),
      workspaceId,
      sku: seed.sku,
      title: `Item ${seed.sku}`,
      tags: seed.tags ?? [],
      price: seed.price,
      cost: seed.cost,
      inventory: null,
      storeProductRef: `prod-${seed.sku}`,
      storeVariantRef: `var-${seed.sku}`,
      analysedCost: seed.analysedCost ?? null,
      createdAt: 0,
      updatedAt: 0
    })
    const db = yield* MemoryDatabase
    yield* db.update((tables) => ({ ...tables, catalogItems: HashMap.set(tables.catalogItems, item.id, item) }))
    yield* MemoryStore.use((store) => store.setPrice(workspaceId, `var-${seed.sku}`, seed.price))
    return item
  })

/** A `new` recommendation for `item` (its price to `recommendedPrice`), as a run would have left it. */
export const seedRecommendation = (item: CatalogItem, recommendedPrice: number, id = `rec_${item.sku}`) =>
  Effect.gen(function* () {
    const recommendation = aRecommendation({
      id: RecommendationId.make(id),
      workspaceId: item.workspaceId,
      runId: seededRun,
      itemId: item.id,
      sku: item.sku,
      currency: item.currency,
      currentPrice: item.price,
      recommendedPrice,
      version: 0,
      createdAt: 0,
      updatedAt: 0
    })
    yield* RecommendationRepository.use((recommendations) => recommendations.insertMany([recommendation]))
    return recommendation
  })

export const seedAlert = (workspaceId: WorkspaceId, id: string, finding: AlertFinding) =>
  Effect.gen(function* () {
    const alert = AlertMachine.raise(id, { workspaceId, runId: null, itemId: null }, finding, 0)
    yield* AlertRepository.use((alerts) => alerts.raiseMany([alert]))
    return alert
  })

/** The workspace's audit trail, oldest first. */
export const auditOf = (
  workspaceId: WorkspaceId
): Effect.Effect<ReadonlyArray<AuditEvent>, RepositoryError, AuditRepository> =>
  AuditRepository.use((audit) =>
    Effect.map(audit.list(workspaceId, { limit: 200, cursor: null }), (page) => [...page.items].reverse())
  )

/**
 * Item A at 10.00 in the catalog and the store of `wsA` (plan max, store connected), its
 * recommendation to 10.99 accepted and approved at `at`: the write-back pending, not yet delivered.
 */
export const approvedWriteBack = (at: number) =>
  Effect.gen(function* () {
    yield* seedWorkspace(wsA, "max")
    yield* connectStore(wsA)
    yield* TestClock.setTime(at)
    const item = yield* seedItem(wsA, { sku: "A", price: 1000, cost: 700 })
    const recommendation = yield* seedRecommendation(item, 1099)
    const recommendations = yield* Recommendations
    yield* recommendations.accept(wsA, recommendation.id, tokenActor)
    const { writeBack } = yield* recommendations.approve(wsA, recommendation.id, sessionActor, "approver")
    if (writeBack === null) return yield* Effect.die("approve enqueues a write-back")
    return { item, recommendation, writeBack }
  })
