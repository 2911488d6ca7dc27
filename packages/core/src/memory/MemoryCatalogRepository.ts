import { Effect, HashMap, Layer, Option, Stream } from "effect"
import { decideBatch } from "../catalog/CatalogImportBatch.ts"
import type { ImportDecision } from "../catalog/CatalogImportDecision.ts"
import type { CatalogItem, CatalogItemInput } from "../catalog/CatalogItem.ts"
import type { CatalogPatch, CatalogPatchLine } from "../catalog/CatalogPatch.ts"
import { CatalogRepository, skuMatches } from "../catalog/CatalogRepository.ts"
import { withPrice } from "../catalog/PriceHistory.ts"
import type { Tag } from "../catalog/Tag.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { CatalogItemId, type WorkspaceId } from "../kernel/Ids.ts"
import { byCreatedAt, pageBy } from "./internal/MemoryPaging.ts"
import { compareStrings, getRow, rowsWhere } from "./internal/MemoryRows.ts"
import { catalogItemsTable, type Tables } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

// The price history's rule is the domain's (PriceHistory.ts); re-exported where adapters and benches found it.
export { priceHistoryLimit, withPrice } from "../catalog/PriceHistory.ts"

/**
 * The price a write-back applied: a price change like any other, and the item remembers the price
 * it replaced and when, so that an import of a file made before the write-back does not put the
 * old price back (CatalogImportDecision). An already applied price changes nothing.
 */
export const writtenBack = (
  item: CatalogItem,
  price: number,
  now: number
): Pick<CatalogItem, "price" | "priceHistory" | "priceSetAt" | "writtenBackFrom"> =>
  price === item.price
    ? { price, priceHistory: item.priceHistory, priceSetAt: item.priceSetAt, writtenBackFrom: item.writtenBackFrom }
    : { ...withPrice(item, price), priceSetAt: now, writtenBackFrom: item.price }

const inScope = (item: CatalogItem, tags: ReadonlyArray<Tag>): boolean =>
  tags.length === 0 || item.tags.some((tag) => tags.includes(tag))

const itemsForRun = (tables: Tables, workspaceId: WorkspaceId, tags: ReadonlyArray<Tag>): Array<CatalogItem> =>
  rowsWhere(tables.catalogItems, (item) => item.workspaceId === workspaceId && inScope(item, tags))

export const layer: Layer.Layer<CatalogRepository, never, MemoryDatabase | IdGenerator> = Layer.effect(
  CatalogRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const ids = yield* IdGenerator

    const upsertMany = (workspaceId: WorkspaceId, inputs: ReadonlyArray<CatalogItemInput>, now: number) =>
      db.transaction(
        Effect.gen(function* () {
          // One row per sku: a sku repeated in the batch keeps its last version.
          const bySku = new Map(inputs.map((input) => [input.sku, input]))
          const existing = yield* db.read(
            (tables) =>
              new Map(
                rowsWhere(tables.catalogItems, (item) => item.workspaceId === workspaceId && bySku.has(item.sku)).map(
                  (item) => [item.sku, item]
                )
              )
          )
          // A batch without competitor prices keeps the items' (CatalogItemInput).
          const competitorColumn = inputs.some((input) => input.competitorPrice !== undefined)
          const rows: Array<CatalogItem> = []
          for (const input of bySku.values()) {
            const current = existing.get(input.sku)
            rows.push(
              current === undefined
                ? {
                    storeProductRef: null,
                    storeVariantRef: null,
                    ...input,
                    competitorPrice: input.competitorPrice ?? null,
                    id: CatalogItemId.make(yield* ids.next("catalogItem")),
                    workspaceId,
                    // The import is the first time the cost is seen (CatalogRepository.upsertMany).
                    analysedCost: input.cost,
                    // An upsert does not say when its units were counted (PriceHistory).
                    unitsCountedAt: null,
                    priceHistory: [],
                    priceSetAt: now,
                    writtenBackFrom: null,
                    createdAt: now,
                    updatedAt: now
                  }
                : {
                    ...current,
                    ...input,
                    competitorPrice: competitorColumn ? (input.competitorPrice ?? null) : current.competitorPrice,
                    ...withPrice(current, input.price),
                    unitsCountedAt: null,
                    ...(input.price === current.price ? {} : { priceSetAt: now, writtenBackFrom: null }),
                    updatedAt: now
                  }
            )
          }
          yield* db.update((tables) => ({
            ...tables,
            catalogItems: rows.reduce((all, item) => HashMap.set(all, item.id, item), tables.catalogItems)
          }))
          return { inserted: bySku.size - existing.size, updated: existing.size }
        })
      )

    const applyImport = (
      workspaceId: WorkspaceId,
      lines: ReadonlyArray<CatalogPatchLine>,
      decide: (current: CatalogItem | undefined, patch: CatalogPatch) => ImportDecision
    ) =>
      db.transaction(
        Effect.gen(function* () {
          const skus = new Set(lines.map(({ patch }) => patch.sku))
          const current = yield* db.read((tables) =>
            rowsWhere(tables.catalogItems, (item) => item.workspaceId === workspaceId && skus.has(item.sku))
          )
          const { decisions, written } = yield* decideBatch(lines, current, decide, ids.next("catalogItem"))
          yield* db.update((tables) => ({
            ...tables,
            catalogItems: written.reduce((all, item) => HashMap.set(all, item.id, item), tables.catalogItems)
          }))
          return decisions
        })
      )

    // Keyset paging by id, so each chunk is one short read and memory stays bounded.
    const streamForRun = (workspaceId: WorkspaceId, tags: ReadonlyArray<Tag>, chunkSize: number) =>
      Stream.paginate<string | null, ReadonlyArray<CatalogItem>, never, never>(null, (afterId) =>
        db.read((tables) => {
          const chunk = itemsForRun(tables, workspaceId, tags)
            .filter((item) => afterId === null || item.id > afterId)
            .sort((a, b) => compareStrings(a.id, b.id))
            .slice(0, chunkSize)
          const last = chunk[chunk.length - 1]
          return [
            chunk.length === 0 ? [] : [chunk],
            last === undefined || chunk.length < chunkSize ? Option.none() : Option.some(last.id)
          ] as const
        })
      )

    return CatalogRepository.of({
      get: (workspaceId, id) =>
        getRow(db, catalogItemsTable, id).pipe(Effect.map(Option.filter((item) => item.workspaceId === workspaceId))),
      list: (workspaceId, filter, page) =>
        db.read((tables) =>
          pageBy(
            rowsWhere(
              tables.catalogItems,
              (item) =>
                item.workspaceId === workspaceId &&
                (filter.tag === null || item.tags.includes(filter.tag)) &&
                skuMatches(item.sku, filter.sku)
            ),
            byCreatedAt,
            page
          )
        ),
      count: (workspaceId) =>
        db.read((tables) => rowsWhere(tables.catalogItems, (item) => item.workspaceId === workspaceId).length),
      upsertMany,
      applyImport,
      streamForRun,
      // A whole item carries every field a run reads.
      streamRunItems: streamForRun,
      streamElasticityEvidence: (workspaceId, chunkSize) =>
        streamForRun(workspaceId, [], chunkSize).pipe(
          Stream.map((chunk) => chunk.filter((item) => item.priceHistory.length > 0)),
          Stream.filter((chunk) => chunk.length > 0)
        ),
      countForRun: (workspaceId, tags) => db.read((tables) => itemsForRun(tables, workspaceId, tags).length),
      markAnalysed: (workspaceId, snapshot) =>
        db.update((tables) => ({
          ...tables,
          catalogItems: snapshot.reduce(
            (all, { id, cost }) =>
              HashMap.modify(all, id, (item) =>
                item.workspaceId === workspaceId ? { ...item, analysedCost: cost } : item
              ),
            tables.catalogItems
          )
        })),
      setPrice: (workspaceId, id, price, now) =>
        db.update((tables) => ({
          ...tables,
          catalogItems: HashMap.modify(tables.catalogItems, id, (item) =>
            item.workspaceId === workspaceId ? { ...item, ...writtenBack(item, price, now), updatedAt: now } : item
          )
        }))
    })
  })
)
