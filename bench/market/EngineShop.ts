// The shop driven through the pure engine: `analyseCatalog` over the catalog, each item as a run
// reads it (`pricingInput`), and the repository's price-history rule (`withPrice`) on an import and
// on adoption.
import type { CatalogItem } from "@margin/core/CatalogItem"
import { CatalogItemId, WorkspaceId } from "@margin/core/Ids"
import { withPrice } from "@margin/core/memory/MemoryCatalogRepository"
import { analyseCatalog } from "@margin/core/Pricing"
import { pricingInput } from "@margin/core/RunExecutor"
import { Effect } from "effect"
import { competitorAt, inCatalog } from "./Market.ts"
import type { Adoption, OpenShop } from "./Shop.ts"
import { itemInput } from "./Shop.ts"

const workspaceId = WorkspaceId.make("ws_market")

export const openEngineShop: OpenShop = (market, policy) =>
  Effect.sync(() => {
    /** The catalog by market index; undefined until the item's first import. */
    const items: Array<CatalogItem | undefined> = market.items.map(() => undefined)
    const indexOf = new Map(market.items.map((item) => [CatalogItemId.make(`itm_${item.index}`), item.index]))
    return {
      importCatalog: (cycle, units) =>
        Effect.sync(() => {
          for (const item of market.items) {
            if (!inCatalog(item, cycle)) continue
            const current = items[item.index]
            const input = itemInput(market, item, cycle, current?.price ?? item.startPrice, units[item.index] ?? 0)
            items[item.index] =
              current === undefined
                ? {
                    ...input,
                    competitorPrice: input.competitorPrice ?? null,
                    id: CatalogItemId.make(`itm_${item.index}`),
                    workspaceId,
                    storeProductRef: null,
                    storeVariantRef: null,
                    analysedCost: input.cost,
                    // As the use cases' imports record it: each past point with its period's competitor price.
                    priceHistory: item.startHistory.map((point, k) => {
                      const competitorPrice = competitorAt(item, k - item.startHistory.length)
                      return competitorPrice === null ? point : { ...point, competitorPrice }
                    }),
                    createdAt: 0,
                    updatedAt: 0
                  }
                : { ...current, ...input, competitorPrice: input.competitorPrice ?? null }
          }
        }),
      runAndAdopt: Effect.sync(() => {
        const catalog = items.flatMap((item) => (item === undefined ? [] : [pricingInput(item)]))
        const analysis = analyseCatalog(catalog, policy)
        const adopted: Array<Adoption> = []
        for (const { itemId, recommendation } of analysis.items) {
          const index = indexOf.get(itemId)
          const item = index === undefined ? undefined : items[index]
          if (recommendation === null || index === undefined || item === undefined) continue
          items[index] = { ...item, ...withPrice(item, recommendation.recommendedPrice) }
          adopted.push({
            index,
            from: item.price,
            to: recommendation.recommendedPrice,
            rule: recommendation.rule,
            elasticity: recommendation.elasticity,
            interval: recommendation.elasticityInterval
          })
        }
        return adopted.sort((a, b) => a.index - b.index)
      })
    }
  })
