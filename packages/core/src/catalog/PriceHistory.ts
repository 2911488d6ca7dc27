import type { CatalogItem, PricePoint } from "./CatalogItem.ts"

/** How many past (price, units) observations an item keeps for the elasticity estimate. */
export const priceHistoryLimit = 24

/**
 * A new price for an item. When the price really changes, the outgoing price and the units sold
 * while it was in force (and the competitor price then, if any) become one observation of the item's
 * price history.
 */
export const withPrice = (item: CatalogItem, price: number): Pick<CatalogItem, "price" | "priceHistory"> =>
  price === item.price
    ? { price, priceHistory: item.priceHistory }
    : {
        price,
        priceHistory: [
          ...item.priceHistory,
          (item.competitorPrice === null
            ? { price: item.price, units: item.unitsSold30d }
            : {
                price: item.price,
                units: item.unitsSold30d,
                competitorPrice: item.competitorPrice
              }) satisfies PricePoint
        ].slice(-priceHistoryLimit)
      }
