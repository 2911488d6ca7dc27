import { CatalogItemId, RecommendationId, RunId, WorkspaceId } from "@margin/core/kernel/Ids"
import { CurrencyCode } from "@margin/core/kernel/Money"
import { ElasticitySource, RuleCode } from "@margin/core/pricing/Pricing"
import { RecommendationStatus } from "@margin/core/recommendations/Recommendation"
import { Schema } from "effect"
import { Float, Instant, Int8, NullableFloat, NullableInstant, NullableInt8 } from "./PgColumns.ts"
import {
  instantOrNull,
  isFiniteNumber,
  isFiniteOrNull,
  isInstant,
  isInstantOrNull,
  isInteger,
  isIntegerOrNull,
  isRecord,
  isTextOrNull,
  literalOf,
  stringOf
} from "./PgFastChecks.ts"

/** A row of `recommendations` (`superseded_by_run_id` is bookkeeping of supersedeOpen, not domain). */
export const RecommendationRow = Schema.Struct({
  id: RecommendationId,
  workspace_id: WorkspaceId,
  run_id: RunId,
  item_id: CatalogItemId,
  sku: Schema.String,
  currency: CurrencyCode,
  current_price: Int8,
  recommended_price: Int8,
  current_margin: NullableFloat,
  projected_margin: NullableFloat,
  rule: RuleCode,
  explanation: Schema.String,
  elasticity: Float,
  elasticity_source: ElasticitySource,
  elasticity_sample_size: Int8,
  expected_monthly_impact: Int8,
  status: RecommendationStatus,
  accepted_at: NullableInstant,
  accepted_by: Schema.NullOr(Schema.String),
  approved_at: NullableInstant,
  decided_by: Schema.NullOr(Schema.String),
  decided_at: NullableInstant,
  reject_reason: Schema.NullOr(Schema.String),
  dismissed_at: NullableInstant,
  version: Int8,
  created_at: Instant,
  updated_at: Instant,
  elasticity_low: Float,
  elasticity_high: Float,
  basis_cost: NullableInt8,
  basis_competitor_price: NullableInt8,
  basis_policy: Schema.NullOr(Schema.String),
  superseded_by: Schema.NullOr(RecommendationId),
  superseded_reason: Schema.NullOr(Schema.String)
})
export type RecommendationRow = typeof RecommendationRow.Type

const isRecommendationId = stringOf(RecommendationId)
const isWorkspaceId = stringOf(WorkspaceId)
const isRunId = stringOf(RunId)
const isItemId = stringOf(CatalogItemId)
const isCurrency = Schema.is(CurrencyCode)

const isRule = literalOf(RuleCode)
const isElasticitySource = literalOf(ElasticitySource)
const isStatus = literalOf(RecommendationStatus)

/**
 * A `recommendations` row decoded by RecommendationRow's checks written out (PgRows.FastRow): lists,
 * the report export and every transition read these rows, and the schema costs about as much per
 * row as the rest of a list request. PgRecommendationRows.test.ts holds it to the schema's answers.
 */
export const fastRecommendationRow = (row: unknown): RecommendationRow | undefined => {
  if (!isRecord(row)) return undefined
  const {
    id,
    workspace_id,
    run_id,
    item_id,
    sku,
    currency,
    current_price,
    recommended_price,
    current_margin,
    projected_margin,
    rule,
    explanation,
    elasticity,
    elasticity_source,
    elasticity_sample_size,
    expected_monthly_impact,
    status,
    accepted_at,
    accepted_by,
    approved_at,
    decided_by,
    decided_at,
    reject_reason,
    dismissed_at,
    version,
    created_at,
    updated_at,
    elasticity_low,
    elasticity_high,
    basis_cost,
    basis_competitor_price,
    basis_policy,
    superseded_by,
    superseded_reason
  } = row
  if (
    !isRecommendationId(id) ||
    !isWorkspaceId(workspace_id) ||
    !isRunId(run_id) ||
    !isItemId(item_id) ||
    typeof sku !== "string" ||
    !isCurrency(currency) ||
    !isInteger(current_price) ||
    !isInteger(recommended_price) ||
    !isFiniteOrNull(current_margin) ||
    !isFiniteOrNull(projected_margin) ||
    !isRule(rule) ||
    typeof explanation !== "string" ||
    !isFiniteNumber(elasticity) ||
    !isElasticitySource(elasticity_source) ||
    !isInteger(elasticity_sample_size) ||
    !isInteger(expected_monthly_impact) ||
    !isStatus(status) ||
    !isInstantOrNull(accepted_at) ||
    !isTextOrNull(accepted_by) ||
    !isInstantOrNull(approved_at) ||
    !isTextOrNull(decided_by) ||
    !isInstantOrNull(decided_at) ||
    !isTextOrNull(reject_reason) ||
    !isInstantOrNull(dismissed_at) ||
    !isInteger(version) ||
    !isInstant(created_at) ||
    !isInstant(updated_at) ||
    !isFiniteNumber(elasticity_low) ||
    !isFiniteNumber(elasticity_high) ||
    !isIntegerOrNull(basis_cost) ||
    !isIntegerOrNull(basis_competitor_price) ||
    !isTextOrNull(basis_policy) ||
    !(superseded_by === null || isRecommendationId(superseded_by)) ||
    !isTextOrNull(superseded_reason)
  ) {
    return undefined
  }
  return {
    id,
    workspace_id,
    run_id,
    item_id,
    sku,
    currency,
    current_price,
    recommended_price,
    current_margin,
    projected_margin,
    rule,
    explanation,
    elasticity,
    elasticity_source,
    elasticity_sample_size,
    expected_monthly_impact,
    status,
    accepted_at: instantOrNull(accepted_at),
    accepted_by,
    approved_at: instantOrNull(approved_at),
    decided_by,
    decided_at: instantOrNull(decided_at),
    reject_reason,
    dismissed_at: instantOrNull(dismissed_at),
    version,
    created_at: created_at.getTime(),
    updated_at: updated_at.getTime(),
    elasticity_low,
    elasticity_high,
    basis_cost,
    basis_competitor_price,
    basis_policy,
    superseded_by,
    superseded_reason
  }
}

/**
 * A `recommendations` row from the driver's values (`statement.values`) of `SELECT <columnsOf(
 * RecommendationRow)>`, in that order, as the row object `fastRecommendationRow` reads.
 *
 * Why: the driver builds each row object by assigning its columns one by one, and V8 turns an
 * object given that many properties that way into a hash table; a list request built and read 51 of
 * them, about 50 µs. An object literal of the values keeps the fast layout. The order is the row
 * schema's (PgRecommendationRows.test.ts checks it).
 */
export const recommendationRowOfValues = (values: ReadonlyArray<unknown>) => ({
  id: values[0],
  workspace_id: values[1],
  run_id: values[2],
  item_id: values[3],
  sku: values[4],
  currency: values[5],
  current_price: values[6],
  recommended_price: values[7],
  current_margin: values[8],
  projected_margin: values[9],
  rule: values[10],
  explanation: values[11],
  elasticity: values[12],
  elasticity_source: values[13],
  elasticity_sample_size: values[14],
  expected_monthly_impact: values[15],
  status: values[16],
  accepted_at: values[17],
  accepted_by: values[18],
  approved_at: values[19],
  decided_by: values[20],
  decided_at: values[21],
  reject_reason: values[22],
  dismissed_at: values[23],
  version: values[24],
  created_at: values[25],
  updated_at: values[26],
  elasticity_low: values[27],
  elasticity_high: values[28],
  basis_cost: values[29],
  basis_competitor_price: values[30],
  basis_policy: values[31],
  superseded_by: values[32],
  superseded_reason: values[33]
})
