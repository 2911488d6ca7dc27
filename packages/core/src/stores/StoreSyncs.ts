import { Clock, Context, Effect, Layer, Option, Result, Stream } from "effect"
import { type Actor, actorLabel } from "../access/Actor.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { decideImportLine, type ImportDecision } from "../catalog/CatalogImportDecision.ts"
import {
  addDecision,
  addRejection,
  type CatalogImportSummary,
  emptyImportSummary
} from "../catalog/CatalogImportSummary.ts"
import type { CatalogItem } from "../catalog/CatalogItem.ts"
import type { CatalogPatch, CatalogPatchLine } from "../catalog/CatalogPatch.ts"
import { CatalogRepository } from "../catalog/CatalogRepository.ts"
import { NoCommerceIntegration, type RepositoryError } from "../kernel/Errors.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import { Transactor } from "../kernel/Transactor.ts"
import { StoreCatalogSource, type StoreReadFailed } from "./StoreCatalogSource.ts"
import type { StoreConnection } from "./StoreConnection.ts"
import { StoreConnectionRepository } from "./StoreConnectionRepository.ts"
import { type StoreSale, storeSaleOf } from "./StoreSale.ts"
import {
  recentSalesMillis,
  salesBoundaries,
  salesHistoryMillis,
  salesPatches,
  salesPeriodMillis
} from "./StoreSalePeriods.ts"
import { StoreSalesRepository } from "./StoreSalesRepository.ts"
import {
  initialSyncState,
  type PendingStoreRead,
  type StoreOrdersSyncState,
  type StoreSalesSummary,
  type StoreSyncReport,
  type StoreSyncState,
  type StoreSyncTrigger
} from "./StoreSyncState.ts"
import { StoreSyncStateRepository } from "./StoreSyncStateRepository.ts"
import { type StoreVariant, storeVariantPatch } from "./StoreVariant.ts"

export interface StoreSyncOptions {
  /** Variants per `CatalogRepository.applyImport` call: one read of their items and one write. */
  readonly batchSize: number
  /**
   * How far before the previous read's start an incremental read begins: the store's clock and ours
   * differ, and a change made while the previous read ran may have been missed by it. Reading a change
   * twice is harmless (the second time it is `unchanged`).
   */
  readonly overlapMillis: number
  /**
   * A sync reads the whole store again when its last full read began this long ago: an incremental read
   * asks for the variants updated since, and some changes do not update a variant (at Shopify, a stock
   * movement or a product's tags), so a periodic full read catches them.
   */
  readonly fullEveryMillis: number
}

export const defaultStoreSyncOptions: StoreSyncOptions = {
  batchSize: 2000,
  overlapMillis: 5 * 60 * 1000,
  fullEveryMillis: 24 * 60 * 60 * 1000
}

export interface StoreSyncRequest {
  readonly workspaceId: WorkspaceId
  readonly trigger: StoreSyncTrigger
  readonly actor: Actor
}

type Rejection = { readonly _tag: "Rejected"; readonly line: number; readonly error: string }
type Read = CatalogPatchLine | Rejection

/** A catalog sku is 1 to 128 characters (CatalogItemInput); a store variant without one cannot be an item. */
const skuProblem = (variant: StoreVariant): string | null =>
  variant.sku.trim().length === 0
    ? `variant ${variant.variantRef} has no sku`
    : variant.sku.length > 128
      ? `variant ${variant.variantRef}: its sku is longer than 128 characters`
      : null

/**
 * Brings a workspace's catalog in line with its connected store (docs/stores.md, "Store sync"): the
 * first sync reads every variant, the next ones the variants changed since (less
 * `overlapMillis`), and every `fullEveryMillis` the whole store again. What the store says about a variant becomes an import line (StoreVariant.storeVariantPatch)
 * applied through the decision of imports (CatalogImportDecision): fields the store does not say are
 * kept, a price moves only when it is newer than the item's (a write-back applied after the read
 * began stands), and a re-read state changes nothing. The store is only read.
 *
 * A crash leaves nothing half-applied and loses no work at the store: the read's handle is saved
 * before the store is waited for (a Shopify bulk operation runs on), and the read is applied in one
 * transaction with the sync's new state, so the next sync finishes that same read.
 */
export class StoreSyncs extends Context.Service<
  StoreSyncs,
  {
    readonly sync: (
      request: StoreSyncRequest
    ) => Effect.Effect<StoreSyncReport, NoCommerceIntegration | StoreReadFailed | RepositoryError>
    readonly state: (workspaceId: WorkspaceId) => Effect.Effect<StoreSyncState, RepositoryError>
  }
>()("margin/core/StoreSyncs") {
  static readonly layerWith = ({ batchSize, overlapMillis, fullEveryMillis }: StoreSyncOptions) =>
    Layer.effect(
      StoreSyncs,
      Effect.gen(function* () {
        const catalog = yield* CatalogRepository
        const connections = yield* StoreConnectionRepository
        const states = yield* StoreSyncStateRepository
        const source = yield* StoreCatalogSource
        const sales = yield* StoreSalesRepository
        const transactor = yield* Transactor
        const audit = yield* AuditTrail

        const state = Effect.fn("StoreSyncs.state")(function* (workspaceId: WorkspaceId) {
          return Option.getOrElse(yield* states.get(workspaceId), () => initialSyncState(workspaceId))
        })

        /** A new read of the store, its handle saved (committed) before anything waits on it. */
        const begin = Effect.fnUntraced(function* (connection: StoreConnection, current: StoreSyncState, now: number) {
          const fullDue = current.fullSyncedUpTo === null || now - current.fullSyncedUpTo >= fullEveryMillis
          const since = fullDue || current.syncedUpTo === null ? null : current.syncedUpTo - overlapMillis
          const ref = yield* source.begin(connection, since)
          const pending: PendingStoreRead = { ref, since, startedAt: now }
          yield* states.save({ ...current, pending })
          return pending
        })

        /**
         * The pending read, ready to stream: the one a crashed sync left if it still can be finished,
         * else a new one (`beginNew` begins it and saves its handle). A read the store lost (`restart`)
         * is forgotten (`forget`) and begun again, once.
         */
        const readyRead = Effect.fnUntraced(function* <E>(
          connection: StoreConnection,
          pending: PendingStoreRead | null,
          beginNew: Effect.Effect<PendingStoreRead, E | StoreReadFailed | RepositoryError>,
          forget: Effect.Effect<void, RepositoryError>
        ) {
          if (pending !== null) {
            const resumed = yield* source.ready(connection, pending.ref).pipe(
              Effect.as(Option.some(pending)),
              Effect.catchIf(
                (failure) => failure.restart,
                () => Effect.as(forget, Option.none<PendingStoreRead>())
              )
            )
            if (Option.isSome(resumed)) return resumed.value
          }
          const fresh = yield* beginNew
          yield* source
            .ready(connection, fresh.ref)
            .pipe(Effect.tapError((failure) => (failure.restart ? forget : Effect.void)))
          return fresh
        })

        /** The variants' part of a sync: the catalog as the store holds it, in one transaction. */
        const syncCatalog = Effect.fnUntraced(function* (
          request: StoreSyncRequest,
          connection: StoreConnection,
          startedAt: number
        ) {
          const { workspaceId } = request
          const current = yield* state(workspaceId)
          const pending = yield* readyRead(
            connection,
            current.pending,
            begin(connection, { ...current, pending: null }, startedAt),
            states.save({ ...current, pending: null })
          )

          const decide = (current: Parameters<typeof decideImportLine>[0], patch: CatalogPatchLine["patch"]) =>
            decideImportLine(current, patch, workspaceId, startedAt)

          const applyBatch = (summary: CatalogImportSummary, reads: ReadonlyArray<Read>) =>
            Effect.gen(function* () {
              const lines = reads.filter((read): read is CatalogPatchLine => !("_tag" in read))
              const decisions = lines.length === 0 ? [] : yield* catalog.applyImport(workspaceId, lines, decide)
              let next = summary
              let decided = 0
              for (const read of reads) {
                if ("_tag" in read) {
                  next = addRejection(next, { line: read.line, error: read.error })
                  continue
                }
                const decision = decisions[decided++]
                if (decision !== undefined) next = addDecision(next, read.line, decision)
              }
              return next
            })

          const applied = Effect.gen(function* () {
            const summary = yield* source.variants(connection, pending.ref).pipe(
              Stream.zipWithIndex,
              Stream.map(([variant, index]): Read => {
                const problem = skuProblem(variant)
                return problem === null
                  ? { line: index + 1, patch: storeVariantPatch(variant, pending.startedAt) }
                  : { _tag: "Rejected", line: index + 1, error: problem }
              }),
              Stream.grouped(batchSize),
              // The store's next variants are read and parsed while the database takes these.
              Stream.buffer({ capacity: 2 }),
              Stream.runFoldEffect(() => emptyImportSummary, applyBatch)
            )
            const report: StoreSyncReport = {
              trigger: request.trigger,
              full: pending.since === null,
              startedAt,
              finishedAt: yield* Clock.currentTimeMillis,
              summary,
              requestedBy: actorLabel(request.actor)
            }
            yield* states.save({
              ...current,
              workspaceId,
              syncedUpTo: pending.startedAt,
              fullSyncedUpTo: report.full ? pending.startedAt : current.fullSyncedUpTo,
              pending: null,
              last: report
            })
            yield* audit.record({
              workspaceId,
              actor: report.requestedBy,
              action: "store.sync",
              resourceType: "store_sync",
              resourceId: workspaceId,
              beforeStatus: null,
              afterStatus: `created ${summary.created}, updated ${summary.updated}, rejected ${summary.rejectedTotal}`,
              at: startedAt
            })
            return report
          })

          return yield* transactor.transaction(applied).pipe(
            // A read the store lost midway (its result expired) cannot be finished: the next sync begins anew.
            Effect.tapError((failure) =>
              failure._tag === "StoreReadFailed" && failure.restart
                ? states.save({ ...current, pending: null })
                : Effect.void
            )
          )
        })

        /**
         * The orders' part of a sync (docs/stores.md, "Orders"): the order lines read (all of the last 12
         * months on a full read, those of orders updated since on the next ones) are kept in the sales
         * history, one row per line, replaced when read again; then every item whose counts may have
         * moved is recounted from the history and patched through the import decision: its
         * `units_sold_30d`, and a price-history point per complete 30-day period. An item is recounted when
         * one of its lines was read, or when time alone moved its counts since the previous read: a sale
         * left the last 30 days, or a period it sold in completed. One transaction with the state.
         */
        const syncOrders = Effect.fnUntraced(function* (
          workspaceId: WorkspaceId,
          connection: StoreConnection,
          startedAt: number,
          report: StoreSyncReport
        ) {
          const current = yield* state(workspaceId)
          const orders = current.orders
          const saveOrders = (next: StoreOrdersSyncState) =>
            Effect.flatMap(state(workspaceId), (latest) => states.save({ ...latest, orders: next }))
          const fullDue = orders.fullSyncedUpTo === null || startedAt - orders.fullSyncedUpTo >= fullEveryMillis
          const since = fullDue || orders.syncedUpTo === null ? null : orders.syncedUpTo - overlapMillis
          const beginNew = Effect.gen(function* () {
            const ref = yield* source.beginOrders(connection, since, startedAt - salesHistoryMillis)
            const pending: PendingStoreRead = { ref, since, startedAt }
            yield* saveOrders({ ...orders, pending })
            return pending
          })
          const forget = saveOrders({ ...orders, pending: null })
          const pending = yield* readyRead(connection, orders.pending, beginNew, forget)

          // A sku sold that no item has: its sales wait in the history (counted as skusNotInCatalog).
          const decide = (item: CatalogItem | undefined, patch: CatalogPatch): ImportDecision =>
            item === undefined
              ? { _tag: "Rejected", error: `sku ${patch.sku} is not in the catalog` }
              : decideImportLine(item, patch, workspaceId, startedAt)

          const applied = Effect.gen(function* () {
            const touched = new Set<string>()
            let lines = 0
            let linesLeftOut = 0
            yield* source.orderLines(connection, pending.ref).pipe(
              Stream.grouped(batchSize),
              Stream.buffer({ capacity: 2 }),
              Stream.runForEach((chunk) => {
                const kept: Array<StoreSale> = []
                for (const line of chunk) {
                  const sale = storeSaleOf(line)
                  if (Result.isFailure(sale)) {
                    linesLeftOut += 1
                    continue
                  }
                  kept.push(sale.success)
                  touched.add(sale.success.sku)
                }
                lines += kept.length
                return kept.length === 0 ? Effect.void : sales.record(workspaceId, kept)
              })
            )
            const now = pending.startedAt
            const previous = orders.syncedUpTo
            if (pending.since !== null && previous !== null) {
              // Time alone moves some counts: sales that left the last 30 days since the previous count,
              // and the sales of periods that completed since.
              const left = yield* sales.skusSoldBetween(
                workspaceId,
                previous - recentSalesMillis,
                now - recentSalesMillis
              )
              const endBefore = Math.floor(previous / salesPeriodMillis) * salesPeriodMillis
              const endNow = Math.floor(now / salesPeriodMillis) * salesPeriodMillis
              const completed =
                endNow > endBefore
                  ? yield* sales.skusSoldBetween(workspaceId, endBefore - salesPeriodMillis, endNow)
                  : []
              for (const sku of [...left, ...completed]) touched.add(sku)
            }
            const boundaries = salesBoundaries(now)
            const skus = [...touched].sort()
            touched.clear()
            let summary: StoreSalesSummary = {
              lines,
              linesLeftOut,
              itemsUpdated: 0,
              itemsUnchanged: 0,
              skusNotInCatalog: 0
            }
            for (let offset = 0; offset < skus.length; offset += batchSize) {
              const batch = skus.slice(offset, offset + batchSize)
              const totals = yield* sales.totals(workspaceId, batch, boundaries)
              const patches = salesPatches(batch, totals, now).map((patch, index) => ({ line: index + 1, patch }))
              for (const decision of yield* catalog.applyImport(workspaceId, patches, decide)) {
                summary = {
                  ...summary,
                  itemsUpdated: summary.itemsUpdated + (decision._tag === "Updated" ? 1 : 0),
                  itemsUnchanged: summary.itemsUnchanged + (decision._tag === "Unchanged" ? 1 : 0),
                  skusNotInCatalog: summary.skusNotInCatalog + (decision._tag === "Rejected" ? 1 : 0)
                }
              }
            }
            const latest = yield* state(workspaceId)
            const withSales: StoreSyncReport = { ...report, sales: summary, finishedAt: yield* Clock.currentTimeMillis }
            yield* states.save({
              ...latest,
              last: withSales,
              orders: {
                syncedUpTo: pending.startedAt,
                fullSyncedUpTo: pending.since === null ? pending.startedAt : orders.fullSyncedUpTo,
                pending: null
              }
            })
            return withSales
          })

          return yield* transactor
            .transaction(applied)
            .pipe(
              Effect.tapError((failure) =>
                failure._tag === "StoreReadFailed" && failure.restart ? forget : Effect.void
              )
            )
        })

        const sync = Effect.fn("StoreSyncs.sync")(function* (request: StoreSyncRequest) {
          const connection = yield* connections.get(request.workspaceId)
          if (Option.isNone(connection) || connection.value.status !== "connected") {
            return yield* new NoCommerceIntegration()
          }
          const startedAt = yield* Clock.currentTimeMillis
          const report = yield* syncCatalog(request, connection.value, startedAt)
          return yield* syncOrders(request.workspaceId, connection.value, startedAt, report)
        })

        return StoreSyncs.of({ sync, state })
      })
    )

  static readonly layer = StoreSyncs.layerWith(defaultStoreSyncOptions)
}
