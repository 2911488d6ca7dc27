/**
 * Partial import lines in every combination of columns, and the check that a line changed what it
 * mentions and nothing else: shared by the decision's table test, the use case on the memory
 * adapters and the import over PostgreSQL.
 */
import { assert } from "@effect/vitest"
import { type CatalogColumn, catalogColumns } from "../catalog/CatalogImport.ts"
import type { CatalogItem } from "../catalog/CatalogItem.ts"
import { formatMajorUnits } from "../kernel/Money.ts"

/** The columns a line may mention besides its sku (observed_at aside: it is not a field). */
export const fieldColumns = catalogColumns.filter(
  (column): column is Exclude<CatalogColumn, "sku" | "observed_at"> => column !== "sku" && column !== "observed_at"
)
export type FieldColumn = (typeof fieldColumns)[number]

/** The item field each column writes. */
export const fieldOf = {
  title: "title",
  tags: "tags",
  currency: "currency",
  price: "price",
  cost: "cost",
  compare_at_price: "compareAtPrice",
  min_price: "minPrice",
  max_price: "maxPrice",
  inventory: "inventory",
  units_sold_30d: "unitsSold30d",
  store_product_ref: "storeProductRef",
  store_variant_ref: "storeVariantRef",
  competitor_price: "competitorPrice"
} as const satisfies Record<FieldColumn, keyof CatalogItem>

/** Every subset of `fieldColumns` (2^13), the empty one included. */
export function* mentionedColumns(): Generator<ReadonlyArray<FieldColumn>> {
  for (let mask = 0; mask < 2 ** fieldColumns.length; mask++) yield columnsOfMask(mask)
}

export const columnsOfMask = (mask: number): ReadonlyArray<FieldColumn> =>
  fieldColumns.filter((_, index) => (mask & (1 << index)) !== 0)

/** A value different from `current` for each field (the currency stays: an item keeps its currency). */
const newValues = (item: CatalogItem) => ({
  title: `${item.title} v2`,
  tags: ["imported"],
  currency: item.currency,
  price: item.price + 100,
  cost: (item.cost ?? 0) + 50,
  compareAtPrice: (item.compareAtPrice ?? 0) + 200,
  minPrice: (item.minPrice ?? 0) + 10,
  maxPrice: (item.maxPrice ?? 0) + 5000,
  inventory: (item.inventory ?? 0) + 1,
  unitsSold30d: item.unitsSold30d + 3,
  storeProductRef: `${item.storeProductRef ?? "p"}-new`,
  storeVariantRef: `${item.storeVariantRef ?? "v"}-new`,
  competitorPrice: (item.competitorPrice ?? 0) + 77
})
export type NewValues = ReturnType<typeof newValues>

/** A column's new value as a file writes it. */
const cellOf = (column: FieldColumn, values: NewValues, item: CatalogItem): string | number => {
  const field = fieldOf[column]
  const value = values[field]
  if (typeof value === "number" && column !== "inventory" && column !== "units_sold_30d") {
    return formatMajorUnits(value, item.currency)
  }
  return Array.isArray(value) ? value.join(";") : value
}

/** A CSV header and line that mention `columns` of `item` (new values), and the values expected after. */
export const partialLine = (columns: ReadonlyArray<FieldColumn>, item: CatalogItem) => {
  const expected = newValues(item)
  return {
    header: ["sku", ...columns].join(","),
    line: [item.sku, ...columns.map((column) => String(cellOf(column, expected, item)))].join(","),
    expected
  }
}

/** The same as one JSONL line: only the mentioned keys. */
export const partialJsonLine = (columns: ReadonlyArray<FieldColumn>, item: CatalogItem) => {
  const expected = newValues(item)
  const record: Record<string, unknown> = { sku: item.sku }
  for (const column of columns) record[column] = cellOf(column, expected, item)
  return { line: JSON.stringify(record), expected }
}

/**
 * Every field `columns` mention holds its new value, every other field what it held `before`; the
 * price history grows by one point (the outgoing price) only when the price was mentioned.
 */
export const unmentionedFieldsKept = (
  columns: ReadonlyArray<FieldColumn>,
  before: CatalogItem,
  after: CatalogItem,
  expected: NewValues
): void => {
  const context = `columns [${columns.join(",")}]`
  for (const column of fieldColumns) {
    const field = fieldOf[column]
    assert.deepStrictEqual(
      after[field],
      columns.includes(column) ? expected[field] : before[field],
      `${context}: ${field}`
    )
  }
  // The outgoing price with the units, the competitor price of its time and when the units were counted
  // (PriceHistory.withPrice).
  const outgoing = {
    price: before.price,
    units: before.unitsSold30d,
    ...(before.competitorPrice === null ? {} : { competitorPrice: before.competitorPrice }),
    ...(before.unitsCountedAt === null ? {} : { at: before.unitsCountedAt })
  }
  const pricePoint = columns.includes("price") ? [outgoing] : []
  assert.deepStrictEqual(after.priceHistory, [...before.priceHistory, ...pricePoint], `${context}: priceHistory`)
  assert.deepStrictEqual(
    [after.id, after.sku, after.workspaceId, after.analysedCost, after.createdAt],
    [before.id, before.sku, before.workspaceId, before.analysedCost, before.createdAt],
    context
  )
}
