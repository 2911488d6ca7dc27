import * as PgTypes from "@effect/sql-pg/PgTypes"
import { CurrencyCode } from "@margin/core/kernel/Money"
import type { StoreSale } from "@margin/core/stores/StoreSale"
import { StoreSalesRepository } from "@margin/core/stores/StoreSalesRepository"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { clientOptions } from "./ClientOptions.ts"
import { Int8 } from "./PgColumns.ts"
import { asRepository, asRepositoryWith } from "./PgRepositoryError.ts"
import { rowsOf } from "./PgRows.ts"

const TotalRow = Schema.Struct({
  sku: Schema.String,
  interval: Schema.Finite,
  units: Int8,
  revenue: Int8,
  currency: CurrencyCode
})

const SkuRow = Schema.Struct({ sku: Schema.String })

/** One array parameter; only an element type without an array type could fail, a defect. */
const arrayParameter = (oid: number, values: ReadonlyArray<unknown>) =>
  Effect.orDie(Effect.fromResult(PgTypes.array(values, oid, clientOptions.types)))

/** The columns of a batch of sales, each one array parameter, in the order of the unnest's record. */
const saleColumns: ReadonlyArray<readonly [number, (sale: StoreSale) => unknown]> = [
  [PgTypes.OID.text, (sale) => sale.lineRef],
  [PgTypes.OID.text, (sale) => sale.sku],
  [PgTypes.OID.int8, (sale) => sale.soldAt],
  [PgTypes.OID.int4, (sale) => sale.units],
  [PgTypes.OID.int8, (sale) => sale.unitPrice],
  [PgTypes.OID.text, (sale) => sale.currency]
]

/** Sales per INSERT statement: six array parameters each. */
const recordStatementSize = 10_000

/**
 * `store_sales`, one row per order line. A batch of lines is one upsert of unnested arrays (instants as
 * epoch milliseconds); the totals sum each sku's lines per interval with `width_bucket` over the
 * boundaries, on the (workspace, sku, sold_at) index.
 */
export const layer: Layer.Layer<StoreSalesRepository, never, SqlClient.SqlClient> = Layer.effect(
  StoreSalesRepository,
  Effect.map(SqlClient.SqlClient, (client) => {
    const sql = client.withoutTransforms()
    const epoch = sql.literal("'epoch'::timestamptz")
    return StoreSalesRepository.of({
      record: (workspaceId, given) => {
        // A line twice in one statement cannot be upserted twice: the last one said stands.
        const sales = [...new Map(given.map((sale) => [sale.lineRef, sale])).values()]
        return Effect.forEach(
          Array.from({ length: Math.ceil(sales.length / recordStatementSize) }, (_, n) =>
            sales.slice(n * recordStatementSize, (n + 1) * recordStatementSize)
          ),
          (batch) =>
            Effect.forEach(saleColumns, ([oid, value]) => arrayParameter(oid, batch.map(value))).pipe(
              Effect.flatMap(
                (arrays) => sql`
                INSERT INTO store_sales (workspace_id, line_ref, sku, sold_at, units, unit_price, currency)
                SELECT ${workspaceId}, r.line_ref, r.sku, ${epoch} + r.sold_at * interval '1 millisecond', r.units,
                  r.unit_price, r.currency
                FROM unnest(${sql.csv(arrays.map((array) => sql`${array}`))})
                  AS r(line_ref, sku, sold_at, units, unit_price, currency)
                ON CONFLICT (workspace_id, line_ref) DO UPDATE SET sku = EXCLUDED.sku, sold_at = EXCLUDED.sold_at,
                  units = EXCLUDED.units, unit_price = EXCLUDED.unit_price, currency = EXCLUDED.currency`
              )
            ),
          { discard: true }
        ).pipe(asRepository("StoreSalesRepository.record"))
      },

      skusSoldBetween: (workspaceId, from, to) =>
        sql`
        SELECT DISTINCT sku FROM store_sales
        WHERE workspace_id = ${workspaceId} AND sold_at >= ${epoch} + ${from}::int8 * interval '1 millisecond'
          AND sold_at < ${epoch} + ${to}::int8 * interval '1 millisecond'
        ORDER BY sku`.pipe(
          asRepositoryWith(
            "StoreSalesRepository.skusSoldBetween",
            rowsOf(SkuRow, (row) => row.sku)
          )
        ),

      totals: (workspaceId, skus, boundaries) =>
        skus.length === 0 || boundaries.length < 2
          ? Effect.succeed([])
          : Effect.all([arrayParameter(PgTypes.OID.text, skus), arrayParameter(PgTypes.OID.int8, boundaries)]).pipe(
              Effect.flatMap(
                ([skuArray, boundaryArray]) => sql`
                WITH bounds AS (
                  SELECT array_agg(${epoch} + b * interval '1 millisecond' ORDER BY b) AS at FROM unnest(${boundaryArray}) AS b
                ), bucketed AS (
                  SELECT s.sku, width_bucket(s.sold_at, bounds.at) - 1 AS interval, s.units, s.unit_price, s.currency
                  FROM store_sales s, bounds
                  WHERE s.workspace_id = ${workspaceId} AND s.sku = ANY(${skuArray}) AND s.units > 0
                    AND s.sold_at >= bounds.at[1] AND s.sold_at < bounds.at[array_length(bounds.at, 1)]
                )
                SELECT sku, interval, sum(units)::int8 AS units, sum(units::int8 * unit_price)::int8 AS revenue,
                  min(currency) AS currency
                FROM bucketed GROUP BY sku, interval ORDER BY sku, interval`
              ),
              asRepositoryWith(
                "StoreSalesRepository.totals",
                rowsOf(TotalRow, (row) => row)
              )
            )
    })
  })
)
