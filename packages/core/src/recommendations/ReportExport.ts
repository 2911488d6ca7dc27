import { Context, Effect, Layer, Stream } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import type { Recommendation } from "./Recommendation.ts"
import { RecommendationRepository } from "./RecommendationRepository.ts"

/**
 * One line of the report: a recommendation with its item, prices (minor units), margins, status
 * and decision. Decisions are whoever decided last (approve, reject) and why.
 */
export interface ReportRow {
  readonly recommendationId: string
  readonly runId: string
  readonly itemId: string
  readonly sku: string
  readonly currency: Recommendation["currency"]
  readonly currentPrice: number
  readonly recommendedPrice: number
  readonly currentMargin: number | null
  readonly projectedMargin: number | null
  readonly expectedMonthlyImpact: number
  readonly rule: string
  readonly status: string
  readonly decidedBy: string | null
  readonly decidedAt: number | null
  readonly rejectReason: string | null
  readonly createdAt: number
  readonly elasticity: number
  readonly elasticityInterval: readonly [number, number]
  readonly elasticitySource: Recommendation["elasticitySource"]
}

export const reportRow = (recommendation: Recommendation): ReportRow => ({
  recommendationId: recommendation.id,
  runId: recommendation.runId,
  itemId: recommendation.itemId,
  sku: recommendation.sku,
  currency: recommendation.currency,
  currentPrice: recommendation.currentPrice,
  recommendedPrice: recommendation.recommendedPrice,
  currentMargin: recommendation.currentMargin,
  projectedMargin: recommendation.projectedMargin,
  expectedMonthlyImpact: recommendation.expectedMonthlyImpact,
  rule: recommendation.rule,
  status: recommendation.status,
  decidedBy: recommendation.decidedBy,
  decidedAt: recommendation.decidedAt,
  rejectReason: recommendation.rejectReason,
  createdAt: recommendation.createdAt,
  elasticity: recommendation.elasticity,
  elasticityInterval: recommendation.elasticityInterval,
  elasticitySource: recommendation.elasticitySource
})

/** The workspace's report, newest first, streamed so that a large workspace never sits in memory. */
export class ReportExport extends Context.Service<
  ReportExport,
  {
    readonly rows: (workspaceId: WorkspaceId) => Stream.Stream<ReportRow, RepositoryError>
  }
>()("margin/core/ReportExport") {
  static readonly layer = Layer.effect(
    ReportExport,
    Effect.gen(function* () {
      const recommendations = yield* RecommendationRepository
      return ReportExport.of({
        rows: (workspaceId) => Stream.map(recommendations.stream(workspaceId), reportRow)
      })
    })
  )
}
