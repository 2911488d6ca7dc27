// The synthetic catalog of the run benchmark (bench/run.ts): what an import supplies, from a fixed
// seed, so that every benchmark imports the same items.
import type { CatalogItemInput } from "@margin/core/catalog/CatalogItem"
import type { Tag } from "@margin/core/catalog/Tag"
import { CurrencyCode } from "@margin/core/kernel/Money"

/** Ten categories of 10 % each; one item in a hundred also carries the rare tag. */
export const categories: ReadonlyArray<Tag> = Array.from({ length: 10 }, (_, n) => `category-${n}`)
export const rareTag: Tag = "clearance"

const currencies = ["USD", "USD", "USD", "EUR", "GBP", "JPY"].map((code) => CurrencyCode.make(code))

export interface CatalogShape {
  /** The share of items whose margin is anywhere from -10 % to 70 %; the rest sit within 0.3 points of 35 %. */
  readonly offTarget: number
}

/**
 * A catalog as a store priced by the engine before looks: most items near the 35 % target margin
 * of the default policy, `offTarget` of them anywhere; 2 % without a cost, 5 % with a minimum
 * (MAP) and 5 % with a maximum price.
 */
export const describeShape = (shape: CatalogShape) =>
  `${Math.round(shape.offTarget * 100)}% of items off the target margin, 2% without a cost, 5% with a MAP, 5% with a max price`

// mulberry32 (a different stream per batch): small, fast, and the same on every machine.
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** Items `from` to `from + count - 1` of the catalog. */
export const catalogBatch = (shape: CatalogShape, from: number, count: number): Array<CatalogItemInput> => {
  const next = random(from + 1)
  const items: Array<CatalogItemInput> = []
  for (let i = from; i < from + count; i++) {
    const currency = currencies[i % currencies.length] ?? currencies[0]
    const price = Math.round(300 + next() * 20_000)
    const margin = next() < shape.offTarget ? -0.1 + next() * 0.8 : 0.35 + (next() - 0.5) * 0.006
    const category = categories[i % categories.length] ?? categories[0]
    items.push({
      sku: `BENCH-${i.toString().padStart(8, "0")}`,
      title: `Bench item ${i}`,
      tags: i % 100 === 7 ? [category, rareTag] : [category],
      currency,
      price,
      cost: next() < 0.02 ? null : Math.round(price * (1 - margin)),
      compareAtPrice: null,
      minPrice: next() < 0.05 ? Math.round(price * (0.8 + next() * 0.4)) : null,
      maxPrice: next() < 0.05 ? Math.round(price * (1 + next() * 0.5)) : null,
      inventory: Math.floor(next() * 200),
      unitsSold30d: Math.floor(next() * 500)
    })
  }
  return items
}
