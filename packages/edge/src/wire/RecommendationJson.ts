import { toIso } from "@margin/core/kernel/Timestamp"
import { type Recommendation, RecommendationEntity } from "@margin/core/recommendations/Recommendation"
import type { PriceChangeUndone } from "@margin/core/writeback/PriceChanges"
import type { WriteBack } from "@margin/core/writeback/WriteBack"
import { Schema } from "effect"
import { entityJson } from "./EntityJson.ts"
import { tookEffectFields } from "./MutationJson.ts"
import { IsoTimestamp, isoOrNull } from "./TimestampJson.ts"

const wire = entityJson(RecommendationEntity)

/** A recommendation on the wire, derived from its declaration (core's Recommendation.ts). */
export const RecommendationJson = wire.schema
export type RecommendationJson = typeof RecommendationJson.Type

export const recommendationJson: (recommendation: Recommendation) => RecommendationJson = wire.encode

/** Accept, dismiss and reject that took effect now. */
export const RecommendationChangedJson = Schema.Struct({
  ...tookEffectFields,
  recommendation: RecommendationJson
}).annotate({ identifier: "RecommendationChanged" })

export const WriteBackStateJson = Schema.Struct({
  /** applied: the store has the new price; pending: delivery will be retried; failed: it gave up (see the alerts). */
  status: Schema.Literals(["pending", "applied", "failed"]),
  attempts: Schema.Int
}).annotate({ identifier: "WriteBackState" })

/** Approve that took effect now, and where its write-back to the store stands. */
export const RecommendationApprovedJson = Schema.Struct({
  ...tookEffectFields,
  recommendation: RecommendationJson,
  write_back: WriteBackStateJson
}).annotate({ identifier: "RecommendationApproved" })

/** An undo that took effect now: the recommendation (still applied) and where the write-back of the previous price stands. */
export const PriceChangeUndoneJson = RecommendationApprovedJson.annotate({ identifier: "PriceChangeUndone" })

/** An undo's answer, the same to REST and MCP: a second undo is refused, so there is no repeat shape. */
export const priceChangeUndoneJson = (result: PriceChangeUndone): typeof PriceChangeUndoneJson.Type => ({
  ok: true,
  idempotent: false,
  recommendation: recommendationJson(result.change.recommendation),
  write_back: result.writeBack
})

/**
 * The write-back of an approved recommendation, in full: `pending` covers a delivery in flight;
 * `next_attempt_at` is when a pending one is tried again; `last_error` says why the last attempt did not apply.
 */
export const WriteBackDetailJson = Schema.Struct({
  status: Schema.Literals(["pending", "applied", "failed"]),
  attempts: Schema.Int,
  last_error: Schema.NullOr(Schema.String),
  next_attempt_at: Schema.NullOr(IsoTimestamp),
  applied_at: Schema.NullOr(IsoTimestamp)
}).annotate({ identifier: "WriteBackDetail" })
export type WriteBackDetailJson = typeof WriteBackDetailJson.Type

export const writeBackDetailJson = (writeBack: WriteBack): WriteBackDetailJson => {
  const status = writeBack.status === "in_flight" ? "pending" : writeBack.status
  return {
    status,
    attempts: writeBack.attempts,
    last_error: writeBack.lastError,
    next_attempt_at: status === "pending" ? toIso(writeBack.nextAttemptAt) : null,
    applied_at: isoOrNull(writeBack.appliedAt)
  }
}

/** One recommendation with its write-back (null until approved). */
export const RecommendationDetailJson = Schema.Struct({
  ...RecommendationJson.fields,
  write_back: Schema.NullOr(WriteBackDetailJson)
}).annotate({ identifier: "RecommendationDetail" })

export const recommendationDetailJson = (detail: {
  readonly recommendation: Recommendation
  readonly writeBack: WriteBack | null
}): typeof RecommendationDetailJson.Type => ({
  ...recommendationJson(detail.recommendation),
  write_back: detail.writeBack === null ? null : writeBackDetailJson(detail.writeBack)
})
