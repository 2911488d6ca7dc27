import type { CatalogItemInput } from "@margin/core/catalog/CatalogItem"
import type { Tag } from "@margin/core/catalog/Tag"
import { CurrencyCode } from "@margin/core/kernel/Money"

/**
 * The demo store's catalog: `size` items, always the same ones (a seeded generator), mixing the
 * situations a run reacts to: most items below the target margin (recommendations), some priced
 * below cost (negative margin alerts), some without a cost (missing cost alerts), some floors
 * and ceilings, and healthy items that need nothing.
 */
export const demoCatalogSize = 200

const categories = ["kitchen", "garden", "apparel", "electronics", "toys"] as const
const nouns: Record<(typeof categories)[number], ReadonlyArray<string>> = {
  kitchen: ["Mug", "Teapot", "Chef knife", "Cutting board", "Skillet", "Spice rack"],
  garden: ["Trowel", "Planter", "Hose reel", "Pruning shears", "Bird feeder", "Watering can"],
  apparel: ["T-shirt", "Hoodie", "Beanie", "Rain jacket", "Socks", "Scarf"],
  electronics: ["USB-C cable", "Headphones", "Power bank", "Desk lamp", "Smart plug", "Webcam"],
  toys: ["Puzzle", "Kite", "Building blocks", "Yo-yo", "Board game", "Plush bear"]
}
const colours = ["Red", "Blue", "Green", "Black", "White", "Sand", "Navy", "Olive"]

/** mulberry32: a small deterministic generator, so every demo has the same catalog. */
const generator = (seed: number) => {
  let state = seed >>> 0
  return (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const usd = CurrencyCode.make("USD")

export const demoCatalog = (size: number = demoCatalogSize): ReadonlyArray<CatalogItemInput> => {
  const random = generator(20250115)
  const pick = <A>(values: ReadonlyArray<A>, fallback: A): A => values[Math.floor(random() * values.length)] ?? fallback
  return Array.from({ length: size }, (_, index) => {
    const category = categories[index % categories.length] ?? "kitchen"
    const noun = pick(nouns[category], "Item")
    const colour = pick(colours, "Blue")
    // Whole dollars minus a cent, 4.99 to 199.99.
    const price = Math.floor(5 + random() * 195) * 100 - 1
    const situation = index % 20
    // Of every 20 items: 1 below cost, 2 above the 35 % target, 8 near it (2 of them without a cost), 9 below it.
    const margin =
      situation === 0
        ? -0.1
        : situation <= 2
          ? 0.4 + random() * 0.1
          : situation <= 10
            ? 0.36 + random() * 0.1
            : 0.05 + random() * 0.25
    const cost = situation === 6 || situation === 7 ? null : Math.round(price * (1 - margin))
    const tags: Array<Tag> = [category]
    if (index % 7 === 0) tags.push("bestseller")
    if (index % 11 === 0) tags.push("clearance")
    if (index % 13 === 0) tags.push("new")
    return {
      sku: `DEMO-${String(index + 1).padStart(4, "0")}`,
      title: `${colour} ${noun.toLowerCase()}`,
      tags,
      currency: usd,
      price,
      cost,
      compareAtPrice: index % 9 === 0 ? price + 1000 : null,
      minPrice: index % 10 === 3 ? price - 100 : null,
      maxPrice: index % 10 === 4 ? price + 200 : null,
      inventory: Math.floor(random() * 500),
      unitsSold30d: Math.floor(random() * 300)
    }
  })
}

/**
 * How each demo category's demand answers the price: the "true" elasticities its simulated price
 * history is drawn from (kitchen and electronics elastic, toys close to unit elastic).
 */
const demoElasticity: Record<(typeof categories)[number], number> = {
  kitchen: -2.4,
  garden: -1.9,
  apparel: -2.8,
  electronics: -3.2,
  toys: -1.5
}

/** Past prices of an item, as fractions of its current price: two earlier periods each. */
const pastPriceFactors: ReadonlyArray<ReadonlyArray<number>> = [
  [0.9, 1.1],
  [1.15, 0.95],
  [0.85, 1.05]
]

/**
 * The demo catalog's past: earlier versions of the catalog to import before `demoCatalog`, oldest
 * first. Three items in five had two earlier prices; the units sold at each follow their category's
 * elasticity from the current price and units, with up to ±8 % noise (a seeded generator). Importing
 * them in order gives those items a price history (the repository records the outgoing price and its
 * units on every change), the evidence the profit objective estimates elasticities from.
 */
export const demoCatalogHistory = (size: number = demoCatalogSize): ReadonlyArray<ReadonlyArray<CatalogItemInput>> => {
  const random = generator(20250116)
  const current = demoCatalog(size)
  return [0, 1].map((period) =>
    current.map((item, index) => {
      const factors = pastPriceFactors[index % pastPriceFactors.length] ?? [1, 1]
      const category = categories[index % categories.length] ?? "kitchen"
      const noise = 1 + (random() - 0.5) * 0.16
      // Two items in five keep their price: no history for them.
      if (Math.floor(index / 5) % 5 >= 3) return item
      const factor = factors[period] ?? 1
      return {
        ...item,
        price: Math.max(1, Math.round((item.price * factor) / 100) * 100 - 1),
        unitsSold30d: Math.max(1, Math.round(item.unitsSold30d * factor ** demoElasticity[category] * noise))
      }
    })
  )
}
