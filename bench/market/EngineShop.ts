// The shop driven through the pure engine: `analyseCatalog` over the catalog, each item as a run
// reads it (`pricingInput`), and the catalog's price-history rules on an import (`withPrice`, then
// `withUnits` with the period's time, as an import with `observed_at` does) and on adoption.
import type { CatalogItem, CatalogItemInput } from "@margin/core/catalog/CatalogItem"
import { withPrice, withUnits } from "@margin/core/catalog/PriceHistory"
import { CatalogItemId, WorkspaceId } from "@margin/core/kernel/Ids"
import { analyseCatalog } from "@margin/core/pricing/Pricing"
import { pricingInput } from "@margin/core/runs/RunExecutor"
import { Effect } from "effect"
import { competitorAt, inCatalog, type MarketItem, periodEnd } from "./Market.ts"
import type { Adoption, OpenShop } from "./Shop.ts"
import { itemInput } from "./Shop.ts"

const workspaceId = WorkspaceId.make("ws_market")

/**
 * One import of an item's line in period `period` (its units counted up to `periodEnd(period)`): the
 * price first, whose outgoing state becomes a point when it is news, then the units, whose outgoing
 * state becomes a point when its period is new (PriceHistory), then the line's other fields.
 */
const importLine = (before: CatalogItem, input: CatalogItemInput, period: number): CatalogItem => {
  const priced = { ...before, ...withPrice(before, input.price) }
  return {
    ...priced,
    ...input,
    competitorPrice: input.competitorPrice ?? null,
    ...withUnits(priced, input.unitsSold30d, periodEnd(period)),
    price: input.price
  }
}

/**
 * The item as the catalog holds it after importing its past prices one by one, oldest first, as the
 * use cases do: each import at the end of its period (`observed_at`), each point keeping the
 * competitor price of its period, as an import with a `competitor_price` column records it.
 */
const imported = (item: MarketItem, input: CatalogItemInput): CatalogItem => {
  const [first, ...rest] = item.startHistory
  const depth = item.startHistory.length
  // The past point k of n was sold in period k − n and imported at its end.
  const competitorOf = (k: number) => competitorAt(item, k - depth)
  let catalogItem: CatalogItem = {
    ...input,
    price: first?.price ?? input.price,
    unitsSold30d: first?.units ?? input.unitsSold30d,
    unitsCountedAt: first === undefined ? null : periodEnd(-depth),
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
    catalogItem = importLine(
      catalogItem,
      { ...input, price: point.price, unitsSold30d: point.units, competitorPrice: competitorOf(k + 1) },
      k + 1 - depth
    )
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
            items[item.index] =
              current === undefined && item.startHistory.length === 0
                ? { ...before, competitorPrice: input.competitorPrice ?? null, unitsCountedAt: periodEnd(cycle - 1) }
                : importLine(before, input, cycle - 1)
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
