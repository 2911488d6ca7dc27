// The shop driven through the use cases over the in-memory adapters, as a merchant uses the service:
// the catalog imported as CSV files through the import use case (CatalogImports), one file a period
// with its `observed_at` (the end of the period whose units it brings), the starting history as
// successive files at the past prices; a run queued (Runs) and executed (RunExecutor), every recommendation accepted and
// approved (Recommendations, Approval: the write-back moves the store's and the catalog's price,
// which appends the outgoing price to the item's history), and each cycle's import: the period's
// costs, competitor prices and units sold, and the items arriving.
import type { Actor } from "@margin/core/access/Actor"
import { csvHeader, toCsvLine } from "@margin/core/catalog/CatalogImport"
import { CatalogImports } from "@margin/core/catalog/CatalogImports"
import { UserId, WorkspaceId } from "@margin/core/kernel/Ids"
import { formatMajorUnits } from "@margin/core/kernel/Money"
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
import { inCatalog, type MarketItem, periodEnd } from "./Market.ts"
import { type Adoption, itemInput, type OpenShop } from "./Shop.ts"

const workspaceId = WorkspaceId.make("ws_market")
const system: Actor = { _tag: "SystemActor", name: "bench:market" }
const merchant: Actor = { _tag: "SessionActor", userId: UserId.make("usr_merchant") }

// No time limit on the delivery that follows an approval: every adopted price must be in force
// before the period's demand is drawn, however loaded the machine.
const useCases = Approval.layerWith({ deliveryTimeout: Duration.infinity }).pipe(
  Layer.provideMerge(
    Layer.mergeAll(Recommendations.layer, Runs.layer, RunExecutor.layer, WriteBackDelivery.layer, CatalogImports.layer)
  ),
  Layer.provideMerge(MemoryAdapters.layer)
)

const variantOf = (item: MarketItem) => `var-${item.sku}`

/**
 * The shop's clock: the simulated time `now()` (a period's file is imported just after the period's end,
 * the run and its approvals just after), sleeping as the machine's clock does.
 */
const simulatedClock = (machine: Clock.Clock, now: () => number): Clock.Clock => ({
  currentTimeMillisUnsafe: now,
  currentTimeMillis: Effect.sync(now),
  currentTimeNanosUnsafe: () => BigInt(now()) * 1_000_000n,
  currentTimeNanos: Effect.sync(() => BigInt(now()) * 1_000_000n),
  monotonicTimeNanosUnsafe: () => machine.monotonicTimeNanosUnsafe(),
  monotonicTimeNanos: machine.monotonicTimeNanos,
  sleep: (duration) => machine.sleep(duration)
})
const minuteMs = 60_000

export const openUseCaseShop: OpenShop = (market, policy) =>
  Effect.gen(function* () {
    const context = yield* Layer.build(useCases)
    let time = periodEnd(-Math.max(0, ...market.items.map((item) => item.startHistory.length)))
    const clock = simulatedClock(yield* Clock.Clock, () => time)
    const run = <A, E>(effect: Effect.Effect<A, E, Layer.Success<typeof useCases>>): Effect.Effect<A> =>
      effect.pipe(Effect.provideContext(context), Effect.provideService(Clock.Clock, clock), Effect.orDie)
    const indexBySku = new Map(market.items.map((item) => [item.sku, item.index]))

    const header = `${csvHeader},store_variant_ref,competitor_price,observed_at`
    /**
     * Imports every item at `price` with `period`'s cost and competitor price and the `units` sold in
     * `counted`, observed at its end (a null price leaves the item out): one CSV file, as a shop's export.
     */
    const importAll = (
      period: number,
      counted: number,
      price: (item: MarketItem) => number | null,
      units: (item: MarketItem) => number
    ) =>
      Effect.gen(function* () {
        time = periodEnd(counted) + minuteMs
        const observedAt = new Date(periodEnd(counted)).toISOString()
        const lines = market.items.flatMap((item) => {
          const at = price(item)
          if (at === null) return []
          const input = itemInput(market, item, period, at, units(item))
          const competitor =
            input.competitorPrice === undefined || input.competitorPrice === null
              ? "null"
              : formatMajorUnits(input.competitorPrice, input.currency)
          return [`${toCsvLine(input)},${variantOf(item)},${competitor},${observedAt}`]
        })
        yield* CatalogImports.use((imports) =>
          imports.run({
            workspaceId,
            format: "csv",
            lines: Stream.fromIterable([header, ...lines]),
            dryRun: false,
            actor: system
          })
        )
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
          // Past point `point` was sold in period point − depth and imported at its end.
          yield* importAll(
            point - depth,
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
          time += minuteMs
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
          // The cycle's file brings the units of the period before it.
          importAll(
            cycle,
            cycle - 1,
            (item) => (inCatalog(item, cycle) ? (prices[item.index] ?? item.startPrice) : null),
            (item) => units[item.index] ?? 0
          )
        )
    }
  })
