import { Schema } from "effect"
import { CatalogImportSummarySchema } from "../catalog/CatalogImportRecord.ts"
import { WorkspaceId } from "../kernel/Ids.ts"
import { Timestamp } from "../kernel/Timestamp.ts"

/** What asked for a store sync: someone (marginctl, REST) or the workspace's schedule. */
export const StoreSyncTrigger = Schema.Literals(["manual", "schedule"])
export type StoreSyncTrigger = typeof StoreSyncTrigger.Type

/**
 * A read of the store that has begun and is not applied yet: the platform's handle on it (`ref`: a
 * Shopify bulk operation's id, or the query of an incremental read), the changes it asks for
 * (`since`: null for everything) and when it began (the time its prices were observed). Kept across
 * a crash, so that the next sync finishes this read instead of starting another.
 */
export const PendingStoreRead = Schema.Struct({
  ref: Schema.String,
  since: Schema.NullOr(Timestamp),
  startedAt: Timestamp
})
export type PendingStoreRead = typeof PendingStoreRead.Type

/** What a sync did with the store's orders (docs/stores.md, "Orders"). */
export const StoreSalesSummary = Schema.Struct({
  /** Order lines read and kept in the sales history (a line read again replaces itself). */
  lines: Schema.Number,
  /** Order lines left out: no variant with a sku, or an amount that is not one. */
  linesLeftOut: Schema.Number,
  /** Catalog items whose units sold or price history changed. */
  itemsUpdated: Schema.Number,
  /** Items whose sales were recounted and came out the same. */
  itemsUnchanged: Schema.Number,
  /** Skus sold in the store that the catalog does not have: their sales wait in the history. */
  skusNotInCatalog: Schema.Number
})
export type StoreSalesSummary = typeof StoreSalesSummary.Type

/** The last sync that was applied. */
export const StoreSyncReport = Schema.Struct({
  trigger: StoreSyncTrigger,
  /** A full read of the store (the first sync), or only the changes since the previous one. */
  full: Schema.Boolean,
  startedAt: Timestamp,
  finishedAt: Timestamp,
  summary: CatalogImportSummarySchema,
  /** The orders' part; absent from a report made before orders were read. */
  sales: Schema.optionalKey(StoreSalesSummary),
  requestedBy: Schema.String
})
export type StoreSyncReport = typeof StoreSyncReport.Type

/**
 * Where the reading of a store's orders stands, apart from its catalog's: the two are read one after
 * the other (a Shopify shop runs one bulk operation at a time) and each resumes on its own.
 */
export const StoreOrdersSyncState = Schema.Struct({
  syncedUpTo: Schema.NullOr(Timestamp),
  fullSyncedUpTo: Schema.NullOr(Timestamp),
  pending: Schema.NullOr(PendingStoreRead)
})
export type StoreOrdersSyncState = typeof StoreOrdersSyncState.Type

export const initialOrdersSyncState: StoreOrdersSyncState = { syncedUpTo: null, fullSyncedUpTo: null, pending: null }

/**
 * A workspace's store sync, between syncs. `syncedUpTo` is when the last applied read began: the next
 * sync reads the changes made after it (less a margin for clocks, see StoreSyncs). Null until a first,
 * full sync has been applied.
 */
export const StoreSyncState = Schema.Struct({
  workspaceId: WorkspaceId,
  syncedUpTo: Schema.NullOr(Timestamp),
  /** When the last applied full read began; an incremental read cannot see everything (StoreSyncs). */
  fullSyncedUpTo: Schema.NullOr(Timestamp),
  pending: Schema.NullOr(PendingStoreRead),
  last: Schema.NullOr(StoreSyncReport),
  orders: StoreOrdersSyncState
})
export type StoreSyncState = typeof StoreSyncState.Type

export const initialSyncState = (workspaceId: WorkspaceId): StoreSyncState => ({
  workspaceId,
  syncedUpTo: null,
  fullSyncedUpTo: null,
  pending: null,
  last: null,
  orders: initialOrdersSyncState
})
