// The shop driven through the use cases over the in-memory adapters, as a merchant uses the service:
// the catalog imported through the catalog port (the starting history as successive imports at the
// past prices), a run queued (Runs) and executed (RunExecutor), every recommendation accepted and
// approved (Recommendations, Approval: the write-back moves the store's and the catalog's price,
// which appends the outgoing price to the item's history), and each cycle's import: the period's
// costs, competitor prices and units sold, and the items arriving.
import type { Actor } from "@margin/core/access/Actor"
import { CatalogRepository } from "@margin/core/catalog/CatalogRepository"
import { UserId, WorkspaceId } from "@margin/core/kernel/Ids"
import * as MemoryAdapters from "@margin/core/memory/MemoryAdapters"
import { MemoryStore } from "@margin/core/memory/MemoryStore"
import { Approval } from "@margin/core/recommendations/Approval"
import { RecommendationRepository } from "@margin/core/recommendations/RecommendationRepository"
import { Recommendations } from "@margin/core/recommendations/Recommendations"
import { RunExecutor } from "@margin/core/runs/RunExecutor"
import { Runs } from "@margin/core/runs/Runs"
import { StoreConnectionRepository } from "@margin/core/stores/StoreConnectionRepository"
import { aStoreConnection, aWorkspace } from "@margin/core/testing/Fixtures"
import { WorkspaceRepository } from "@margin/core/workspaces/WorkspaceRepository"
import { WriteBackDelivery } from "@margin/core/writeback/WriteBackDelivery"
import { Clock, Duration, Effect, Layer, Stream } from "effect"
import { inCatalog, type MarketItem } from "./Market.ts"
import { type Adoption, itemInput, type OpenShop } from "./Shop.ts"

const workspaceId = WorkspaceId.make("ws_market")
const system: Actor = { _tag: "SystemActor", name: "bench:market" }
const merchant: Actor = { _tag: "SessionActor", userId: UserId.make("usr_merchant") }
const importBatch = 5_000

// No time limit on the delivery that follows an approval: every adopted price must be in force
// before the period's demand is drawn, however loaded the machine.
const useCases = Approval.layerWith({ deliveryTimeout: Duration.infinity }).pipe(
  Layer.provideMerge(Layer.mergeAll(Recommendations.layer, Runs.layer, RunExecutor.layer, WriteBackDelivery.layer)),
  Layer.provideMerge(MemoryAdapters.layer)
)

const variantOf = (item: MarketItem) => `var-${item.sku}`

export const openUseCaseShop: OpenShop = (market, policy) =>
  Effect.gen(function* () {
    const context = yield* Layer.build(useCases)
    const run = <A, E>(effect: Effect.Effect<A, E, Layer.Success<typeof useCases>>): Effect.Effect<A> =>
      effect.pipe(Effect.provideContext(context), Effect.orDie)
    const indexBySku = new Map(market.items.map((item) => [item.sku, item.index]))

    /** Imports every item at `price` in `period`, having sold `units` (a null price leaves the item out). */
    const importAll = (
      period: number,
      price: (item: MarketItem) => number | null,
      units: (item: MarketItem) => number
    ) =>
      Effect.gen(function* () {
        const catalog = yield* CatalogRepository
        const rows = market.items.flatMap((item) => {
          const at = price(item)
          return at === null
            ? []
            : [{ ...itemInput(market, item, period, at, units(item)), storeVariantRef: variantOf(item) }]
        })
        for (let from = 0; from < rows.length; from += importBatch) {
          yield* catalog.upsertMany(workspaceId, rows.slice(from, from + importBatch), yield* Clock.currentTimeMillis)
        }
      })

    // The workspace, its store, and the catalog's past: one import per past price, oldest first; the
    // first cycle's import brings today's prices.
    yield* run(
      Effect.gen(function* () {
        yield* WorkspaceRepository.use((workspaces) =>
          workspaces.insert(
            aWorkspace({ id: workspaceId, name: "Simulated market", plan: "max", pricingPolicy: policy })
          )
        )
        yield* StoreConnectionRepository.use((stores) => stores.connect(aStoreConnection({ workspaceId }), null))
        const depth = Math.max(0, ...market.items.map((item) => item.startHistory.length))
        for (let point = 0; point < depth; point++) {
          // An item with fewer past points starts its past later, so that its last one is followed by today's price.
          const pastPoint = (item: MarketItem) => item.startHistory[point - (depth - item.startHistory.length)]
          yield* importAll(
            point - depth,
            (item) => pastPoint(item)?.price ?? null,
            (item) => pastPoint(item)?.units ?? 0
          )
        }
        const store = yield* MemoryStore
        for (const item of market.items) yield* store.setPrice(workspaceId, variantOf(item), item.startPrice)
      })
    )

    const prices = market.items.map((item) => item.startPrice)

    return {
      runAndAdopt: run(
        Effect.gen(function* () {
          const queued = yield* Runs.use((runs) => runs.trigger(workspaceId, [], "cli", system))
          const finished = yield* RunExecutor.use((executor) => executor.execute(queued))
          if (finished.status !== "succeeded") return yield* Effect.die(`the run ${finished.status}: ${finished.error}`)
          const recommendations = yield* RecommendationRepository.use((repository) =>
            Stream.runCollect(repository.stream(workspaceId))
          )
          const adopted: Array<Adoption> = []
          for (const recommendation of recommendations) {
            if (recommendation.runId !== finished.id || recommendation.status !== "new") continue
            const index = indexBySku.get(recommendation.sku)
            if (index === undefined) continue
            yield* Recommendations.use((service) => service.accept(workspaceId, recommendation.id, merchant))
            const approved = yield* Approval.use((approval) =>
              approval.approve(workspaceId, recommendation.id, merchant, "owner")
            )
            if (approved.writeBack?.status !== "applied") {
              return yield* Effect.die(`the write-back of ${recommendation.sku} is ${approved.writeBack?.status}`)
            }
            const { currentPrice: from, recommendedPrice: to } = recommendation
            prices[index] = to
            adopted.push({
              index,
              from,
              to,
              rule: recommendation.rule,
              elasticity: recommendation.elasticity,
              interval: recommendation.elasticityInterval
            })
          }
          return adopted.sort((a, b) => a.index - b.index)
        })
      ),
      importCatalog: (cycle, units) =>
        run(
          importAll(
            cycle,
            (item) => (inCatalog(item, cycle) ? (prices[item.index] ?? item.startPrice) : null),
            (item) => units[item.index] ?? 0
          )
        )
    }
  })
