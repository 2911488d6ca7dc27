import { Schema } from "effect"
import { CatalogItemId, RecommendationId, WorkspaceId, WriteBackId } from "../kernel/Ids.ts"
import { CurrencyCode } from "../kernel/Money.ts"
import { Timestamp } from "../kernel/Timestamp.ts"

export const WriteBackStatus = Schema.Literals(["pending", "in_flight", "applied", "failed"])
export type WriteBackStatus = typeof WriteBackStatus.Type

/** What the store is asked to do: move one variant from `oldPrice` to `newPrice`. */
export const WriteBackPayload = Schema.Struct({
  itemId: CatalogItemId,
  sku: Schema.String,
  storeProductRef: Schema.NullOr(Schema.String),
  storeVariantRef: Schema.NullOr(Schema.String),
  currency: CurrencyCode,
  oldPrice: Schema.Number,
  newPrice: Schema.Number
})
export type WriteBackPayload = typeof WriteBackPayload.Type

/** What marks the write-back that undoes an applied one: the write-back it reverses, and who asked. */
export const WriteBackUndo = Schema.Struct({ of: WriteBackId, by: Schema.String })
export type WriteBackUndo = typeof WriteBackUndo.Type

/**
 * The outbox row of an approval, or of the undo of an applied one (`undo` set; its payload moves the
 * price back): delivered to the store at least once, applied exactly once.
 */
export const WriteBack = Schema.Struct({
  id: WriteBackId,
  workspaceId: WorkspaceId,
  recommendationId: RecommendationId,
  idempotencyKey: Schema.String,
  payload: WriteBackPayload,
  status: WriteBackStatus,
  attempts: Schema.Number,
  nextAttemptAt: Timestamp,
  lastError: Schema.NullOr(Schema.String),
  appliedAt: Schema.NullOr(Timestamp),
  createdAt: Timestamp,
  undo: Schema.optionalKey(WriteBackUndo)
})
export type WriteBack = typeof WriteBack.Type
