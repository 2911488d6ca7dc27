import { Schema } from "effect"
import { CatalogItemId, RecommendationId, RunId, WorkspaceId } from "../kernel/Ids.ts"
import { CurrencyCode } from "../kernel/Money.ts"
import { Timestamp } from "../kernel/Timestamp.ts"
import { ElasticitySource, RuleCode } from "../pricing/Pricing.ts"
import { RecommendationBasis } from "./RecommendationBasis.ts"

export const recommendationStatuses = [
  "new",
  "pending_approval",
  "approved",
  "applied",
  "write_back_failed",
  "rejected",
  "dismissed",
  "superseded"
] as const
export const RecommendationStatus = Schema.Literals(recommendationStatuses)
export type RecommendationStatus = typeof RecommendationStatus.Type

/**
 * Statuses a newer run may supersede: nobody has decided on a `new` one yet; an accepted one only when
 * something it rested on changed, with a note (DecisionMemory.ts).
 */
export const openRecommendationStatuses: ReadonlyArray<RecommendationStatus> = ["new", "pending_approval"]

export const Recommendation = Schema.Struct({
  id: RecommendationId,
  workspaceId: WorkspaceId,
  runId: RunId,
  itemId: CatalogItemId,
  sku: Schema.String,
  currency: CurrencyCode,
  currentPrice: Schema.Number,
  recommendedPrice: Schema.Number,
  currentMargin: Schema.NullOr(Schema.Number),
  projectedMargin: Schema.NullOr(Schema.Number),
  rule: RuleCode,
  explanation: Schema.String,
  elasticity: Schema.Number,
  /** The 90 % interval of the elasticity, [more negative end, less negative end]. */
  elasticityInterval: Schema.Tuple([Schema.Number, Schema.Number]),
  elasticitySource: ElasticitySource,
  elasticitySampleSize: Schema.Number,
  expectedMonthlyImpact: Schema.Number,
  status: RecommendationStatus,
  /** Set once accept has taken effect; a later accept is then an idempotent repeat. */
  acceptedAt: Schema.NullOr(Timestamp),
  acceptedBy: Schema.NullOr(Schema.String),
  /** Set once approve has taken effect. */
  approvedAt: Schema.NullOr(Timestamp),
  decidedBy: Schema.NullOr(Schema.String),
  decidedAt: Schema.NullOr(Timestamp),
  rejectReason: Schema.NullOr(Schema.String),
  dismissedAt: Schema.NullOr(Timestamp),
  /** The cost, competitor price and policy it rested on; null on recommendations older than this record. */
  basis: Schema.NullOr(RecommendationBasis),
  /** An accepted recommendation a newer run superseded: the recommendation that replaced it, and why. */
  supersededBy: Schema.NullOr(RecommendationId),
  supersededReason: Schema.NullOr(Schema.String),
  /** Bumped by every saved transition: the compare-and-swap guard of the repositories. */
  version: Schema.Number,
  createdAt: Timestamp,
  updatedAt: Timestamp
})
export type Recommendation = typeof Recommendation.Type
