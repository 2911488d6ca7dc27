import { Effect, HashMap, Layer } from "effect"
import type { StoreSaleTotal } from "../stores/StoreSalesRepository.ts"
import { StoreSalesRepository } from "../stores/StoreSalesRepository.ts"
import { compareStrings, rowsWhere } from "./internal/MemoryRows.ts"
import { storeSaleKey, storeSalesTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

/** The interval of `boundaries` holding `at` (`[b[i], b[i + 1])`), or -1 outside them. */
const intervalOf = (boundaries: ReadonlyArray<number>, at: number): number => {
  for (let index = 0; index + 1 < boundaries.length; index++) {
    if (at >= (boundaries[index] ?? 0) && at < (boundaries[index + 1] ?? 0)) return index
  }
  return -1
}

export const layer: Layer.Layer<StoreSalesRepository, never, MemoryDatabase> = Layer.effect(
  StoreSalesRepository,
  Effect.map(MemoryDatabase, (db) =>
    StoreSalesRepository.of({
      record: (workspaceId, sales) =>
        db.update((tables) => {
          let rows = storeSalesTable.rows(tables)
          for (const sale of sales)
            rows = HashMap.set(rows, storeSaleKey(workspaceId, sale.lineRef), { ...sale, workspaceId })
          return storeSalesTable.withRows(tables, rows)
        }),
      skusSoldBetween: (workspaceId, from, to) =>
        db.read((tables) =>
          [
            ...new Set(
              rowsWhere(
                storeSalesTable.rows(tables),
                (sale) => sale.workspaceId === workspaceId && sale.soldAt >= from && sale.soldAt < to
              ).map((sale) => sale.sku)
            )
          ].sort(compareStrings)
        ),
      totals: (workspaceId, skus, boundaries) =>
        db.read((tables) => {
          const wanted = new Set(skus)
          const sums = new Map<string, StoreSaleTotal>()
          for (const sale of rowsWhere(
            storeSalesTable.rows(tables),
            (row) => row.workspaceId === workspaceId && wanted.has(row.sku) && row.units > 0
          )) {
            const interval = intervalOf(boundaries, sale.soldAt)
            if (interval < 0) continue
            const key = JSON.stringify([sale.sku, interval])
            const sum = sums.get(key)
            sums.set(key, {
              sku: sale.sku,
              interval,
              units: (sum?.units ?? 0) + sale.units,
              revenue: (sum?.revenue ?? 0) + sale.units * sale.unitPrice,
              currency: sale.currency
            })
          }
          return [...sums.values()].sort((a, b) => compareStrings(a.sku, b.sku) || a.interval - b.interval)
        })
    })
  )
)
