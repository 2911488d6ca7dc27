import * as PgTypes from "@effect/sql-pg/PgTypes"
import { decideBatch } from "@margin/core/catalog/CatalogImportBatch"
import { type CatalogItem, type CatalogItemInput, PricePoint } from "@margin/core/catalog/CatalogItem"
import { CatalogRepository, type EvidenceItem, type RunItem } from "@margin/core/catalog/CatalogRepository"
import { Tag } from "@margin/core/catalog/Tag"
import { IdGenerator } from "@margin/core/kernel/IdGenerator"
import { CatalogItemId, WorkspaceId } from "@margin/core/kernel/Ids"
import { CurrencyCode } from "@margin/core/kernel/Money"
import { priceHistoryLimit } from "@margin/core/memory/MemoryCatalogRepository"
import { Array as Arr, Effect, Layer, Option, Schema, Stream, Struct } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import type { Fragment } from "effect/sql/Statement"
import { clientOptions } from "./ClientOptions.ts"
import { Instant, Int8, NullableInstant, NullableInt8, toTimestamptz } from "./PgColumns.ts"
import { afterCursor, asPage } from "./PgPaging.ts"
import { asRepository, asRepositoryStream, asRepositoryWith } from "./PgRepositoryError.ts"
import { columnsOf, countOf, firstOf, rowsOf } from "./PgRows.ts"
import { fastRunItems } from "./PgRunItems.ts"

/** A row of `catalog_items`; `price_history` is jsonb, an array of `{ price, units }`. */
export const CatalogItemRow = Schema.Struct({
  id: CatalogItemId,
  workspace_id: WorkspaceId,
  sku: Schema.String,
  title: Schema.String,
  tags: Schema.Array(Tag),
  currency: CurrencyCode,
  price: Int8,
  cost: NullableInt8,
  compare_at_price: NullableInt8,
  min_price: NullableInt8,
  max_price: NullableInt8,
  inventory: NullableInt8,
  units_sold_30d: Int8,
  units_counted_at: NullableInstant,
  store_product_ref: Schema.NullOr(Schema.String),
  store_variant_ref: Schema.NullOr(Schema.String),
  analysed_cost: NullableInt8,
  price_history: Schema.Array(PricePoint),
  competitor_price: NullableInt8,
  price_set_at: Instant,
  written_back_from: NullableInt8,
  created_at: Instant,
  updated_at: Instant
})
export type CatalogItemRow = typeof CatalogItemRow.Type

export const toDomain = (row: CatalogItemRow): CatalogItem => ({
  id: row.id,
  workspaceId: row.workspace_id,
  sku: row.sku,
  title: row.title,
  tags: row.tags,
  currency: row.currency,
  price: row.price,
  cost: row.cost,
  compareAtPrice: row.compare_at_price,
  minPrice: row.min_price,
  maxPrice: row.max_price,
  inventory: row.inventory,
  unitsSold30d: row.units_sold_30d,
  unitsCountedAt: row.units_counted_at,
  storeProductRef: row.store_product_ref,
  storeVariantRef: row.store_variant_ref,
  analysedCost: row.analysed_cost,
  priceHistory: row.price_history,
  competitorPrice: row.competitor_price,
  priceSetAt: row.price_set_at,
  writtenBackFrom: row.written_back_from,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

/** What a run reads of an item (CatalogRepository.RunItem): the pricing engine's inputs. */
export const RunItemRow = CatalogItemRow.mapFields(
  Struct.pick([
    "id",
    "sku",
    "currency",
    "price",
    "cost",
    "min_price",
    "max_price",
    "units_sold_30d",
    "analysed_cost",
    "price_history",
    "tags",
    "competitor_price"
  ])
)
export type RunItemRow = typeof RunItemRow.Type

export const toRunItem = (row: RunItemRow): RunItem => ({
  id: row.id,
  sku: row.sku,
  currency: row.currency,
  price: row.price,
  cost: row.cost,
  minPrice: row.min_price,
  maxPrice: row.max_price,
  unitsSold30d: row.units_sold_30d,
  analysedCost: row.analysed_cost,
  priceHistory: row.price_history,
  tags: row.tags,
  competitorPrice: row.competitor_price
})

/** What pooling reads of an item with a price history (CatalogRepository.EvidenceItem). */
const EvidenceRow = CatalogItemRow.mapFields(
  Struct.pick(["id", "tags", "price", "units_sold_30d", "price_history", "competitor_price"])
)

const toEvidence = (row: typeof EvidenceRow.Type): { readonly id: string; readonly evidence: EvidenceItem } => ({
  id: row.id,
  evidence: {
    tags: row.tags,
    price: row.price,
    unitsSold30d: row.units_sold_30d,
    priceHistory: row.price_history,
    competitorPrice: row.competitor_price
  }
})

/**
 * An upsert batch as columns: one array per column, each sent as one binary array parameter.
 * PostgreSQL reads binary arrays without parsing any text (a jsonb batch was parsed as JSON,
 * then every field again from its text: about 3 µs of database CPU per row, a sixth of the
 * upsert). Tags travel as one `;`-joined string per item (a tag never holds `;`, Tag.ts): a
 * parameter array cannot nest.
 */
const upsertColumns = (ids: ReadonlyArray<string>, inputs: ReadonlyArray<CatalogItemInput>) => {
  const column = <A>(value: (input: CatalogItemInput) => A): Array<A> => inputs.map(value)
  return [
    [PgTypes.OID.text, ids],
    [PgTypes.OID.text, column((input) => input.sku)],
    [PgTypes.OID.text, column((input) => input.title)],
    [PgTypes.OID.text, column((input) => input.tags.join(";"))],
    [PgTypes.OID.text, column((input) => input.currency)],
    [PgTypes.OID.int8, column((input) => input.price)],
    [PgTypes.OID.int8, column((input) => input.cost)],
    [PgTypes.OID.int8, column((input) => input.compareAtPrice)],
    [PgTypes.OID.int8, column((input) => input.minPrice)],
    [PgTypes.OID.int8, column((input) => input.maxPrice)],
    [PgTypes.OID.int4, column((input) => input.inventory)],
    [PgTypes.OID.int4, column((input) => input.unitsSold30d)],
    [PgTypes.OID.text, column((input) => input.storeProductRef ?? null)],
    [PgTypes.OID.text, column((input) => input.storeVariantRef ?? null)],
    [PgTypes.OID.int8, column((input) => input.competitorPrice ?? null)]
  ] as const
}

/** The names of `upsertColumns` in the statement, in its order (the arrays carry the types). */
const upsertRecord =
  "id, sku, title, tags, currency, price, cost, compare_at_price, min_price, max_price, inventory, units_sold_30d, " +
  "store_product_ref, store_variant_ref, competitor_price"

/** A whole item as the columns of the write of an import (CatalogRepository.applyImport). */
const importColumns = (items: ReadonlyArray<CatalogItem>) => {
  const column = <A>(value: (item: CatalogItem) => A): Array<A> => items.map(value)
  return [
    [PgTypes.OID.text, column((item) => item.id)],
    [PgTypes.OID.text, column((item) => item.sku)],
    [PgTypes.OID.text, column((item) => item.title)],
    [PgTypes.OID.text, column((item) => item.tags.join(";"))],
    [PgTypes.OID.text, column((item) => item.currency)],
    [PgTypes.OID.int8, column((item) => item.price)],
    [PgTypes.OID.int8, column((item) => item.cost)],
    [PgTypes.OID.int8, column((item) => item.compareAtPrice)],
    [PgTypes.OID.int8, column((item) => item.minPrice)],
    [PgTypes.OID.int8, column((item) => item.maxPrice)],
    [PgTypes.OID.int4, column((item) => item.inventory)],
    [PgTypes.OID.int4, column((item) => item.unitsSold30d)],
    [PgTypes.OID.text, column((item) => item.storeProductRef)],
    [PgTypes.OID.text, column((item) => item.storeVariantRef)],
    [PgTypes.OID.int8, column((item) => item.competitorPrice)],
    [PgTypes.OID.int8, column((item) => item.analysedCost)],
    [PgTypes.OID.text, column((item) => JSON.stringify(item.priceHistory))],
    [PgTypes.OID.int8, column((item) => item.priceSetAt)],
    [PgTypes.OID.int8, column((item) => item.unitsCountedAt)],
    [PgTypes.OID.int8, column((item) => item.writtenBackFrom)],
    [PgTypes.OID.int8, column((item) => item.createdAt)],
    [PgTypes.OID.int8, column((item) => item.updatedAt)]
  ] as const
}

/** The names of `importColumns`, in its order: the record of the unnest and the columns written. */
const importRecord =
  "id, sku, title, tags, currency, price, cost, compare_at_price, min_price, max_price, inventory, units_sold_30d, " +
  "store_product_ref, store_variant_ref, competitor_price, analysed_cost, price_history, price_set_at, " +
  "units_counted_at, written_back_from, created_at, updated_at"

/** One array parameter; only an element type without an array type could fail, a defect. */
const arrayParameter = ([oid, values]: readonly [number, ReadonlyArray<unknown>]) =>
  Effect.orDie(Effect.fromResult(PgTypes.array(values, oid, clientOptions.types)))

/** Items per INSERT statement: a dozen array parameters each, so the statement size stays bounded. */
const upsertStatementSize = 5_000

export interface CatalogOptions {
  /** The largest tagged scope a run reads by its ids (100,000: about 3 MB of them); a larger one is paged with a filter. */
  readonly tagScopeLimit: number
}

/** A chunked read of a workspace's items in scope: which columns, decoded how, in chunks of what size. */
interface ChunkedRead<A> {
  readonly selected: Fragment
  readonly decode: (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>, Schema.SchemaError>
  readonly workspaceId: WorkspaceId
  readonly tags: ReadonlyArray<Tag>
  readonly chunkSize: number
}

const one = firstOf(CatalogItemRow, toDomain)
const all = rowsOf(CatalogItemRow, toDomain)
// A run decodes every row of a catalog: the fast path (PgRunItems) first, the schema when it declines.
const allRunItems = fastRunItems(rowsOf(RunItemRow, toRunItem))
const idsOf = rowsOf(Schema.Struct({ id: Schema.String }), (row) => row.id)
const evidenceOf = rowsOf(EvidenceRow, toEvidence)

export const layerWith = ({
  tagScopeLimit
}: CatalogOptions): Layer.Layer<CatalogRepository, never, SqlClient.SqlClient | IdGenerator> =>
  Layer.effect(
    CatalogRepository,
    Effect.gen(function* () {
      const sql = (yield* SqlClient.SqlClient).withoutTransforms()
      const ids = yield* IdGenerator
      const columns = sql.literal(columnsOf(CatalogItemRow))
      const runColumns = sql.literal(columnsOf(RunItemRow))
      const epoch = sql.literal("'epoch'::timestamptz")

      const countedMs = sql.literal("(extract(epoch FROM catalog_items.units_counted_at) * 1000)::bigint")
      /**
       * The price history after a price change to `newPrice` (PriceHistory.withPrice): when the price
       * really changes and the outgoing state is news (its units were counted after the newest point's
       * period, or either time is unknown), the outgoing price, the units sold while it was in force, the
       * competitor price then and when the units were counted become one more observation, and only the
       * last `priceHistoryLimit` are kept. Reads the row as it was before the statement.
       */
      const priceHistoryAfter = (newPrice: ReturnType<typeof sql.literal> | number) => sql`
      CASE WHEN catalog_items.price = ${newPrice}
        OR ${countedMs} <= (catalog_items.price_history -> -1 ->> 'at')::bigint
      THEN catalog_items.price_history ELSE (
        SELECT jsonb_agg(h.observation ORDER BY h.n)
        FROM jsonb_array_elements(
          catalog_items.price_history
            || jsonb_strip_nulls(jsonb_build_object(
              'price', catalog_items.price,
              'units', catalog_items.units_sold_30d,
              'competitorPrice', catalog_items.competitor_price,
              'at', ${countedMs}
            ))
        ) WITH ORDINALITY AS h(observation, n)
        WHERE h.n > jsonb_array_length(catalog_items.price_history) + 1 - ${priceHistoryLimit}
      ) END`

      /**
       * Inserts new skus and updates existing ones; answers how many were new (`xmax = 0` tells a
       * fresh row from an updated one), so one row comes back rather than one per item.
       * A new item's analysed cost is the cost it arrives with (the first time it is seen); an update
       * keeps the snapshot the next run compares against.
       */
      const upsertStatement = (
        workspaceId: WorkspaceId,
        itemIds: ReadonlyArray<string>,
        inputs: ReadonlyArray<CatalogItemInput>,
        now: Date
      ) =>
        Effect.forEach(upsertColumns(itemIds, inputs), arrayParameter).pipe(
          Effect.flatMap(
            (arrays) => sql`
            WITH upserted AS (
              INSERT INTO catalog_items (
                id, workspace_id, sku, title, tags, currency, price, cost, compare_at_price, min_price, max_price,
                inventory, units_sold_30d, store_product_ref, store_variant_ref, competitor_price, analysed_cost,
                price_set_at, created_at, updated_at
              )
              SELECT r.id, ${workspaceId}, r.sku, r.title, string_to_array(r.tags, ';'), r.currency, r.price, r.cost,
                r.compare_at_price, r.min_price, r.max_price, r.inventory, r.units_sold_30d, r.store_product_ref,
                r.store_variant_ref, r.competitor_price, r.cost, ${now}, ${now}, ${now}
              FROM unnest(${sql.csv(arrays.map((array) => sql`${array}`))}) AS r(${sql.literal(upsertRecord)})
              ON CONFLICT (workspace_id, sku) DO UPDATE SET
                title = EXCLUDED.title,
                tags = EXCLUDED.tags,
                currency = EXCLUDED.currency,
                price = EXCLUDED.price,
                cost = EXCLUDED.cost,
                compare_at_price = EXCLUDED.compare_at_price,
                min_price = EXCLUDED.min_price,
                max_price = EXCLUDED.max_price,
                inventory = EXCLUDED.inventory,
                units_sold_30d = EXCLUDED.units_sold_30d,
                -- An upsert does not say when its units were counted (PriceHistory).
                units_counted_at = NULL,
                -- A ref left out (null) keeps the item's: CatalogItemInput.
                store_product_ref = coalesce(EXCLUDED.store_product_ref, catalog_items.store_product_ref),
                store_variant_ref = coalesce(EXCLUDED.store_variant_ref, catalog_items.store_variant_ref),
                -- A batch without competitor prices keeps the items' (CatalogItemInput).
                competitor_price = ${sql.literal(
                  inputs.some((input) => input.competitorPrice !== undefined)
                    ? "EXCLUDED.competitor_price"
                    : "catalog_items.competitor_price"
                )},
                price_history = ${priceHistoryAfter(sql.literal("EXCLUDED.price"))},
                -- A price that changes is in force from now, and no write-back's any more.
                price_set_at = CASE WHEN catalog_items.price = EXCLUDED.price
                  THEN catalog_items.price_set_at ELSE EXCLUDED.updated_at END,
                written_back_from = CASE WHEN catalog_items.price = EXCLUDED.price
                  THEN catalog_items.written_back_from ELSE NULL END,
                updated_at = EXCLUDED.updated_at
              RETURNING (xmax = 0) AS inserted
            )
            SELECT count(*) FILTER (WHERE inserted) AS count FROM upserted`
          ),
          Effect.flatMap(countOf)
        )

      const upsertMany = (workspaceId: WorkspaceId, inputs: ReadonlyArray<CatalogItemInput>, now: number) =>
        Effect.gen(function* () {
          // One row per sku: a sku repeated in the batch keeps its last version (ON CONFLICT may touch a row once).
          const bySku = Array.from(new Map(inputs.map((input) => [input.sku, input])).values())
          const itemIds: Array<string> = []
          for (let n = 0; n < bySku.length; n++) itemIds.push(yield* ids.next("catalogItem"))
          let inserted = 0
          for (let start = 0; start < bySku.length; start += upsertStatementSize) {
            const end = start + upsertStatementSize
            inserted += yield* upsertStatement(
              workspaceId,
              itemIds.slice(start, end),
              bySku.slice(start, end),
              toTimestamptz(now)
            )
          }
          return { inserted, updated: bySku.length - inserted }
        }).pipe(sql.withTransaction, asRepository("CatalogRepository.upsertMany"))

      /**
       * Writes whole items an import decided (CatalogRepository.applyImport): new ones inserted, changed
       * ones replaced, by (workspace, sku). Instants travel as epoch milliseconds, the price history as
       * JSON text, each column one array parameter (see upsertColumns).
       */
      const writeItems = (workspaceId: WorkspaceId, items: ReadonlyArray<CatalogItem>) =>
        Effect.forEach(importColumns(items), arrayParameter).pipe(
          Effect.flatMap(
            (arrays) => sql`
            INSERT INTO catalog_items (${sql.literal(importRecord)}, workspace_id)
            SELECT r.id, r.sku, r.title, string_to_array(r.tags, ';'), r.currency, r.price, r.cost, r.compare_at_price,
              r.min_price, r.max_price, r.inventory, r.units_sold_30d, r.store_product_ref, r.store_variant_ref,
              r.competitor_price, r.analysed_cost, r.price_history::jsonb,
              ${epoch} + r.price_set_at * interval '1 millisecond',
              ${epoch} + r.units_counted_at * interval '1 millisecond', r.written_back_from,
              ${epoch} + r.created_at * interval '1 millisecond', ${epoch} + r.updated_at * interval '1 millisecond',
              ${workspaceId}
            FROM unnest(${sql.csv(arrays.map((array) => sql`${array}`))}) AS r(${sql.literal(importRecord)})
            ON CONFLICT (workspace_id, sku) DO UPDATE SET
              ${sql.literal(
                importRecord
                  .split(", ")
                  .filter((name) => name !== "id" && name !== "sku" && name !== "created_at")
                  .map((name) => `${name} = EXCLUDED.${name}`)
                  .join(", ")
              )}`
          )
        )

      const applyImport: CatalogRepository["Service"]["applyImport"] = (workspaceId, lines, decide) =>
        Effect.gen(function* () {
          const skus = Array.from(new Set(lines.map(({ patch }) => patch.sku)))
          // Locked: a write-back applying a price meanwhile waits for the import, then sees its result.
          const current = yield* sql`
            SELECT ${columns} FROM catalog_items
            WHERE workspace_id = ${workspaceId} AND sku = ANY(${skus})
            FOR UPDATE`.pipe(Effect.flatMap(all))
          const { decisions, written: rows } = yield* decideBatch(lines, current, decide, ids.next("catalogItem"))
          for (let start = 0; start < rows.length; start += upsertStatementSize) {
            yield* writeItems(workspaceId, rows.slice(start, start + upsertStatementSize))
          }
          return decisions
        }).pipe(sql.withTransaction, asRepository("CatalogRepository.applyImport"))

      /** Items carrying any of `tags` (the GIN index on tags serves `&&`); every item when there are none. */
      const inScope = (tags: ReadonlyArray<Tag>) => (tags.length === 0 ? sql.literal("TRUE") : sql`tags && ${tags}`)

      /**
       * The workspace's items in scope, in chunks ordered by id: keyset paging on (workspace_id, id), so
       * each chunk is one short indexed read and memory stays bounded by `chunkSize`. A tagged scope
       * filters the pages, reading the items around it too.
       */
      const pagesById = <A extends { readonly id: string }>({
        selected,
        decode,
        workspaceId,
        tags,
        chunkSize
      }: ChunkedRead<A>) =>
        Stream.paginate<string | null, ReadonlyArray<A>, SqlError | Schema.SchemaError>(null, (afterId) =>
          sql`
          SELECT ${selected} FROM catalog_items
          WHERE workspace_id = ${workspaceId} AND ${afterId === null ? sql.literal("TRUE") : sql`id > ${afterId}`}
            AND ${inScope(tags)}
          ORDER BY id
          LIMIT ${chunkSize}`.pipe(
            Effect.flatMap(decode),
            Effect.map((chunk) => {
              const last = chunk[chunk.length - 1]
              return [
                chunk.length === 0 ? [] : [chunk],
                last === undefined || chunk.length < chunkSize ? Option.none() : Option.some(last.id)
              ] as const
            })
          )
        )

      /**
       * The same chunks, for a tagged scope: its ids first, found through the GIN index on tags, then
       * the items by primary key, a chunk at a time, so that a run over a tag reads only its items. A
       * scope of more than `tagScopeLimit` items is paged like the whole catalog instead: the ids
       * held stay bounded, and so large a share of the catalog is cheaper to read in order.
       */
      const chunksById = <A extends { readonly id: string }>(
        read: ChunkedRead<A>
      ): Stream.Stream<ReadonlyArray<A>, SqlError | Schema.SchemaError> => {
        const { selected, decode, workspaceId, tags, chunkSize } = read
        return tags.length === 0
          ? pagesById(read)
          : Stream.unwrap(
              sql`
              SELECT id FROM catalog_items
              WHERE workspace_id = ${workspaceId} AND tags && ${tags}
              ORDER BY id
              LIMIT ${tagScopeLimit + 1}`.pipe(
                Effect.flatMap(idsOf),
                Effect.map((ids) =>
                  ids.length > tagScopeLimit
                    ? pagesById(read)
                    : Stream.fromIterable(Arr.chunksOf(ids, chunkSize)).pipe(
                        Stream.mapEffect((chunk) =>
                          sql`
                          SELECT ${selected} FROM catalog_items
                          WHERE workspace_id = ${workspaceId} AND id = ANY(${chunk})
                          ORDER BY id`.pipe(Effect.flatMap(decode))
                        ),
                        Stream.filter((chunk) => chunk.length > 0)
                      )
                )
              )
            )
      }

      return CatalogRepository.of({
        get: (workspaceId, id) =>
          sql`SELECT ${columns} FROM catalog_items WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
            asRepositoryWith("CatalogRepository.get", one)
          ),
        list: (workspaceId, filter, page) =>
          sql`
          SELECT ${columns} FROM catalog_items
          WHERE workspace_id = ${workspaceId}
            AND ${filter.tag === null ? sql.literal("TRUE") : sql`tags @> ${[filter.tag]}`}
            AND ${
              filter.sku == null || filter.sku === ""
                ? sql.literal("TRUE")
                : sql`sku ILIKE ${`%${filter.sku.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`
            }
            AND ${afterCursor(sql, page.cursor)}
          ORDER BY created_at DESC, id DESC
          LIMIT ${page.limit + 1}`.pipe(asPage("CatalogRepository.list", all, page.limit)),
        count: (workspaceId) =>
          sql`SELECT count(*) AS count FROM catalog_items WHERE workspace_id = ${workspaceId}`.pipe(
            asRepositoryWith("CatalogRepository.count", countOf)
          ),
        upsertMany,
        applyImport,
        streamForRun: (workspaceId, tags, chunkSize) =>
          chunksById({ selected: columns, decode: all, workspaceId, tags, chunkSize }).pipe(
            asRepositoryStream("CatalogRepository.streamForRun")
          ),
        // Only the engine's columns: a run over a large catalog reads and decodes a third of each row.
        streamRunItems: (workspaceId, tags, chunkSize) =>
          chunksById({ selected: runColumns, decode: allRunItems, workspaceId, tags, chunkSize }).pipe(
            asRepositoryStream("CatalogRepository.streamRunItems")
          ),
        // The partial index on items with a history: a catalog without history costs one empty index scan.
        streamElasticityEvidence: (workspaceId, chunkSize) =>
          Stream.paginate<string | null, ReadonlyArray<EvidenceItem>, SqlError | Schema.SchemaError>(null, (afterId) =>
            sql`
            SELECT id, tags, price, units_sold_30d, price_history, competitor_price FROM catalog_items
            WHERE workspace_id = ${workspaceId} AND price_history <> '[]'::jsonb
              AND ${afterId === null ? sql.literal("TRUE") : sql`id > ${afterId}`}
            ORDER BY id
            LIMIT ${chunkSize}`.pipe(
              Effect.flatMap(evidenceOf),
              Effect.map((rows) => {
                const last = rows[rows.length - 1]
                return [
                  rows.length === 0 ? [] : [rows.map((row) => row.evidence)],
                  last === undefined || rows.length < chunkSize ? Option.none() : Option.some(last.id)
                ] as const
              })
            )
          ).pipe(asRepositoryStream("CatalogRepository.streamElasticityEvidence")),
        countForRun: (workspaceId, tags) =>
          sql`SELECT count(*) AS count FROM catalog_items WHERE workspace_id = ${workspaceId} AND ${inScope(tags)}`.pipe(
            asRepositoryWith("CatalogRepository.countForRun", countOf)
          ),
        markAnalysed: (workspaceId, snapshot) =>
          snapshot.length === 0
            ? Effect.void
            : sql`
              UPDATE catalog_items SET analysed_cost = s.cost
              FROM jsonb_to_recordset(${JSON.stringify(snapshot)}::jsonb) AS s(id text, cost bigint)
              WHERE catalog_items.workspace_id = ${workspaceId} AND catalog_items.id = s.id
                AND catalog_items.analysed_cost IS DISTINCT FROM s.cost`.pipe(
                asRepositoryWith("CatalogRepository.markAnalysed", () => Effect.void)
              ),
        setPrice: (workspaceId, id, price, now) =>
          sql`
          UPDATE catalog_items
          SET price = ${price}, price_history = ${priceHistoryAfter(price)},
            price_set_at = CASE WHEN price = ${price} THEN price_set_at ELSE ${toTimestamptz(now)} END,
            written_back_from = CASE WHEN price = ${price} THEN written_back_from ELSE price END,
            updated_at = ${toTimestamptz(now)}
          WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
            asRepositoryWith("CatalogRepository.setPrice", () => Effect.void)
          )
      })
    })
  )

export const layer = layerWith({ tagScopeLimit: 100_000 })
