// The shop driven through the pure engine: `analyseCatalog` over the catalog, each item as a run
// reads it (`pricingInput`), and the repository's price-history rule (`withPrice`) on an import and
// on adoption.
import type { CatalogItem, CatalogItemInput } from "@margin/core/catalog/CatalogItem"
import { CatalogItemId, WorkspaceId } from "@margin/core/kernel/Ids"
import { withPrice } from "@margin/core/memory/MemoryCatalogRepository"
import { analyseCatalog } from "@margin/core/pricing/Pricing"
import { pricingInput } from "@margin/core/runs/RunExecutor"
import { Effect } from "effect"
import { competitorAt, inCatalog, type MarketItem } from "./Market.ts"
import type { Adoption, OpenShop } from "./Shop.ts"
import { itemInput } from "./Shop.ts"

const workspaceId = WorkspaceId.make("ws_market")

/**
 * The item as the catalog holds it after importing its past prices one by one, oldest first, as the
 * use cases do: the repository appends a point to the history only when the price moves (withPrice),
 * so two equal prices in a row leave one point, with the later units, and each point keeps the
 * competitor price of its period, as an import with a `competitor_price` column records it.
 */
const imported = (item: MarketItem, input: CatalogItemInput): CatalogItem => {
  const [first, ...rest] = item.startHistory
  const competitorOf = (k: number) => competitorAt(item, k - item.startHistory.length)
  let catalogItem: CatalogItem = {
    ...input,
    price: first?.price ?? input.price,
    unitsSold30d: first?.units ?? input.unitsSold30d,
    competitorPrice: competitorOf(0),
    id: CatalogItemId.make(`itm_${item.index}`),
    workspaceId,
    storeProductRef: null,
    storeVariantRef: null,
    analysedCost: input.cost,
    priceHistory: [],
    priceSetAt: 0,
    writtenBackFrom: null,
    createdAt: 0,
    updatedAt: 0
  }
  rest.forEach((point, k) => {
    catalogItem = {
      ...catalogItem,
      ...withPrice(catalogItem, point.price),
      unitsSold30d: point.units,
      competitorPrice: competitorOf(k + 1)
    }
  })
  return catalogItem
}

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
            const before = current ?? imported(item, input)
            items[item.index] = {
              ...before,
              ...input,
              competitorPrice: input.competitorPrice ?? null,
              ...withPrice(before, input.price)
            }
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
