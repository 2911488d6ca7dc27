import { toIso } from "@margin/core/kernel/Timestamp"
import { ElasticitySource } from "@margin/core/pricing/Elasticity"
import { RuleCode } from "@margin/core/pricing/PriceRecommendation"
import { type Recommendation, RecommendationStatus } from "@margin/core/recommendations/Recommendation"
import type { PriceChangeUndone } from "@margin/core/writeback/PriceChanges"
import type { WriteBack } from "@margin/core/writeback/WriteBack"
import { Schema } from "effect"
import { MoneyJson, moneyJson } from "./MoneyJson.ts"
import { tookEffectFields } from "./MutationJson.ts"
import { ratioJson } from "./RatioJson.ts"
import { IsoTimestamp, isoOrNull } from "./TimestampJson.ts"

export const RecommendationJson = Schema.Struct({
  id: Schema.String,
  run_id: Schema.String,
  item_id: Schema.String,
  sku: Schema.String,
  status: RecommendationStatus,
  currency: Schema.String,
  current_price: MoneyJson,
  recommended_price: MoneyJson,
  /** (price - cost) / price as a fraction; null when the cost is unknown. */
  current_margin: Schema.NullOr(Schema.Finite),
  projected_margin: Schema.NullOr(Schema.Finite),
  rule: RuleCode,
  explanation: Schema.String,
  elasticity: Schema.Finite,
  /** The elasticity's 90 % interval, [more negative end, less negative end]. */
  elasticity_interval: Schema.Tuple([Schema.Finite, Schema.Finite]),
  /** item, pooled (its tag's or the workspace's estimate) or prior (no price history anywhere). */
  elasticity_source: ElasticitySource,
  elasticity_sample_size: Schema.Int,
  expected_monthly_impact: MoneyJson,
  accepted_at: Schema.NullOr(IsoTimestamp),
  accepted_by: Schema.NullOr(Schema.String),
  approved_at: Schema.NullOr(IsoTimestamp),
  decided_by: Schema.NullOr(Schema.String),
  decided_at: Schema.NullOr(IsoTimestamp),
  reject_reason: Schema.NullOr(Schema.String),
  dismissed_at: Schema.NullOr(IsoTimestamp),
  /** An accepted recommendation a newer run superseded: the recommendation that replaced it. */
  superseded_by: Schema.NullOr(Schema.String),
  /** Why it was superseded: what changed since it was accepted. */
  superseded_reason: Schema.NullOr(Schema.String),
  created_at: IsoTimestamp,
  updated_at: IsoTimestamp
}).annotate({ identifier: "Recommendation" })
export type RecommendationJson = typeof RecommendationJson.Type

export const recommendationJson = (recommendation: Recommendation): RecommendationJson => ({
  id: recommendation.id,
  run_id: recommendation.runId,
  item_id: recommendation.itemId,
  sku: recommendation.sku,
  status: recommendation.status,
  currency: recommendation.currency,
  current_price: moneyJson(recommendation.currentPrice, recommendation.currency),
  recommended_price: moneyJson(recommendation.recommendedPrice, recommendation.currency),
  current_margin: ratioJson(recommendation.currentMargin),
  projected_margin: ratioJson(recommendation.projectedMargin),
  rule: recommendation.rule,
  explanation: recommendation.explanation,
  elasticity: recommendation.elasticity,
  elasticity_interval: [recommendation.elasticityInterval[0], recommendation.elasticityInterval[1]],
  elasticity_source: recommendation.elasticitySource,
  elasticity_sample_size: recommendation.elasticitySampleSize,
  expected_monthly_impact: moneyJson(recommendation.expectedMonthlyImpact, recommendation.currency),
  accepted_at: isoOrNull(recommendation.acceptedAt),
  accepted_by: recommendation.acceptedBy,
  approved_at: isoOrNull(recommendation.approvedAt),
  decided_by: recommendation.decidedBy,
  decided_at: isoOrNull(recommendation.decidedAt),
  reject_reason: recommendation.rejectReason,
  dismissed_at: isoOrNull(recommendation.dismissedAt),
  superseded_by: recommendation.supersededBy,
  superseded_reason: recommendation.supersededReason,
  created_at: toIso(recommendation.createdAt),
  updated_at: toIso(recommendation.updatedAt)
})

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
