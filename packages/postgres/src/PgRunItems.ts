import { PricePoint } from "@margin/core/catalog/CatalogItem"
import type { RunItem } from "@margin/core/catalog/CatalogRepository"
import { Tag } from "@margin/core/catalog/Tag"
import { CatalogItemId } from "@margin/core/kernel/Ids"
import { CurrencyCode } from "@margin/core/kernel/Money"
import { Effect, Schema } from "effect"
import { stringOf } from "./PgFastChecks.ts"

const isItemId = stringOf(CatalogItemId)
const isCurrency = Schema.is(CurrencyCode)
const isPricePoint = Schema.is(PricePoint)
const isTagBySchema = Schema.is(Tag)
// A catalog repeats a few tags on every row: the ones already checked skip the schema (bounded).
const knownTags = new Set<string>()
const isTag = (value: unknown): value is Tag => {
  if (typeof value === "string" && knownTags.has(value)) return true
  if (!isTagBySchema(value)) return false
  if (knownTags.size < 10_000) knownTags.add(value)
  return true
}

// The integer columns arrive as numbers (ClientOptions' int8 codec, int4): the schema's checks, inlined.
const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0
const isCountOrNull = (value: unknown): value is number | null => value === null || isCount(value)

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null

type Decode = (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<RunItem>, Schema.SchemaError>

/**
 * A faster decoder of run-item rows (PgCatalogRepository.RunItemRow) in front of `bySchema`, the
 * schema's. A run reads every item of a catalog, and decoding a row with the schema costs about
 * 10 µs: seconds per million items. Rows that pass the same checks written out by hand skip it; a
 * chunk with any other row goes to `bySchema`, which then accepts it or says what is wrong. Both
 * answer the same items (PgRunItems.test.ts).
 */
export const fastRunItems =
  (bySchema: Decode): Decode =>
  (rows) => {
    const items: Array<RunItem> = []
    for (const row of rows) {
      if (!isRecord(row)) return bySchema(rows)
      const {
        id,
        sku,
        currency,
        price,
        cost,
        min_price,
        max_price,
        units_sold_30d,
        analysed_cost,
        price_history,
        tags,
        competitor_price
      } = row
      if (
        !isItemId(id) ||
        typeof sku !== "string" ||
        !isCurrency(currency) ||
        !isCount(price) ||
        !isCountOrNull(cost) ||
        !isCountOrNull(min_price) ||
        !isCountOrNull(max_price) ||
        !isCount(units_sold_30d) ||
        !isCountOrNull(analysed_cost) ||
        !Array.isArray(price_history) ||
        !price_history.every(isPricePoint) ||
        !Array.isArray(tags) ||
        !tags.every(isTag) ||
        !isCountOrNull(competitor_price)
      ) {
        return bySchema(rows)
      }
      items.push({
        id,
        sku,
        currency,
        price,
        cost,
        minPrice: min_price,
        maxPrice: max_price,
        unitsSold30d: units_sold_30d,
        analysedCost: analysed_cost,
        priceHistory: price_history,
        tags,
        competitorPrice: competitor_price
      })
    }
    return Effect.succeed(items)
  }
