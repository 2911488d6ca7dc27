// The shop driven through the pure engine: `analyseCatalog` over the whole catalog, each item as a
// run reads it (`pricingInput`), and the repository's price-history rule (`withPrice`) on adoption.
import type { CatalogItem } from "@margin/core/CatalogItem"
import { CatalogItemId, WorkspaceId } from "@margin/core/Ids"
import { withPrice } from "@margin/core/memory/MemoryCatalogRepository"
import { analyseCatalog } from "@margin/core/Pricing"
import { pricingInput } from "@margin/core/RunExecutor"
import { Effect } from "effect"
import type { Adoption, OpenShop } from "./Shop.ts"
import { itemInput } from "./Shop.ts"

const workspaceId = WorkspaceId.make("ws_market")

export const openEngineShop: OpenShop = (market, policy) =>
  Effect.sync(() => {
    const items: Array<CatalogItem> = market.items.map((item) => ({
      ...itemInput(item, item.startPrice, item.startUnits),
      id: CatalogItemId.make(`itm_${item.index}`),
      workspaceId,
      storeProductRef: null,
      storeVariantRef: null,
      competitorPrice: null,
      analysedCost: item.cost,
      priceHistory: item.startHistory,
      priceSetAt: 0,
      writtenBackFrom: null,
      createdAt: 0,
      updatedAt: 0
    }))
    const indexOf = new Map(items.map((item, index) => [item.id, index]))
    return {
      runAndAdopt: Effect.sync(() => {
        const analysis = analyseCatalog(items.map(pricingInput), policy)
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
      }),
      recordSales: (units) =>
        Effect.sync(() => {
          items.forEach((item, index) => {
            items[index] = { ...item, unitsSold30d: units[index] ?? 0 }
          })
        })
    }
  })
