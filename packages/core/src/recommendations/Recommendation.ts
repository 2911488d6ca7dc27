import { Schema } from "effect"
import * as Entity from "../kernel/Entity.ts"
import { CatalogItemId, RecommendationId, RunId } from "../kernel/Ids.ts"
import { CurrencyCode } from "../kernel/Money.ts"
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

const { field, same, money, ratio, instantOrNull, textOrNull } = Entity
const NullableString = Schema.NullOr(Schema.String)
const Interval = Schema.Tuple([Schema.Number, Schema.Number])
const NullableBasis = Schema.NullOr(RecommendationBasis)
const numberOrNull = (value: unknown): number | null => (typeof value === "number" ? value : null)

/** The answer of the example run (docs/api.md shows the same): the example of the OpenAPI document. */
const exampleCreatedAt = 1_795_332_953_088

/**
 * A recommendation, declared once: the order of the fields is the wire's (REST, MCP, the OpenAPI
 * document). To add a field: add it here (its column, its wire name), add the column in a migration,
 * and give the fixtures a value (docs/architecture.md, "An entity declared once").
 */
export const RecommendationEntity = Entity.entity("Recommendation", {
  id: field(RecommendationId, {
    description: "The recommendation's id.",
    example: RecommendationId.make("rec_01m812xn02rynaz2v6w2yp0gw5"),
    column: ["id", "text"],
    wire: same("id", Schema.String)
  }),
  workspaceId: Entity.workspaceField,
  runId: field(RunId, {
    description: "The run that made it.",
    example: RunId.make("run_01m812xmykvmv6knr8c3ssh0cv"),
    column: ["run_id", "text"],
    wire: same("run_id", Schema.String)
  }),
  itemId: field(CatalogItemId, {
    description: "The catalog item it prices.",
    example: CatalogItemId.make("itm_01m812wcjvfrvqkszqwppg2xqa"),
    column: ["item_id", "text"],
    wire: same("item_id", Schema.String)
  }),
  sku: field(Schema.String, {
    description: "The item's SKU when the run made it.",
    example: "DEMO-0196",
    column: ["sku", "text"],
    wire: same("sku", Schema.String)
  }),
  status: field(RecommendationStatus, {
    description: "Where it stands in its machine (RecommendationMachine).",
    example: "new",
    column: ["status", "text"],
    wire: same("status", RecommendationStatus)
  }),
  currency: field(CurrencyCode, {
    description: "The currency of every amount of it.",
    example: CurrencyCode.make("USD"),
    column: ["currency", "text"],
    wire: same("currency", Schema.String)
  }),
  currentPrice: field(Schema.Number, {
    description: "The item's price when the run made it, in minor units.",
    example: 3899,
    column: ["current_price", "bigint"],
    wire: money("current_price", "currency")
  }),
  recommendedPrice: field(Schema.Number, {
    description: "The price recommended, in minor units.",
    example: 4199,
    column: ["recommended_price", "bigint"],
    wire: money("recommended_price", "currency")
  }),
  currentMargin: field(Schema.NullOr(Schema.Number), {
    description: "(price - cost) / price as a fraction; null when the cost is unknown.",
    example: 0.1685,
    column: ["current_margin", "double precision"],
    wire: ratio("current_margin")
  }),
  projectedMargin: field(Schema.NullOr(Schema.Number), {
    description: "The margin at the recommended price; null when the cost is unknown.",
    example: 0.2279,
    column: ["projected_margin", "double precision"],
    wire: ratio("projected_margin")
  }),
  rule: field(RuleCode, {
    description: "Why this price (PriceRecommendation's RuleCode).",
    example: "step_limited",
    column: ["rule", "text"],
    wire: same("rule", RuleCode)
  }),
  explanation: field(Schema.String, {
    description: "One human sentence: why, from what to what, and the expected impact.",
    example:
      "Reaching 49.88 USD (the profit-maximising price) takes more than the 10.0% step, so this run moves part of the way: raise the price from 38.99 USD to 41.99 USD (projected margin 22.8%).",
    column: ["explanation", "text"],
    wire: same("explanation", Schema.String)
  }),
  elasticity: field(Schema.Number, {
    description: "The price elasticity of demand the price rests on.",
    example: -2.33,
    column: ["elasticity", "double precision"],
    wire: same("elasticity", Schema.Finite)
  }),
  elasticityInterval: field(Interval, {
    description: "The 90 % interval of the elasticity, [more negative end, less negative end].",
    example: [-2.6, -2.06],
    columns: {
      columns: [
        Entity.column("elasticity_low", "double precision", Schema.Number),
        Entity.column("elasticity_high", "double precision", Schema.Number)
      ],
      split: ([low, high]) => [low, high],
      join: ([low, high]): readonly [number, number] => [Number(low), Number(high)]
    },
    wire: same("elasticity_interval", Schema.Tuple([Schema.Finite, Schema.Finite]))
  }),
  elasticitySource: field(ElasticitySource, {
    description: "item, pooled (its tag's or the workspace's estimate) or prior (no price history anywhere).",
    example: "pooled",
    column: ["elasticity_source", "text"],
    wire: same("elasticity_source", ElasticitySource)
  }),
  elasticitySampleSize: field(Schema.Number, {
    description: "How many observations the elasticity was estimated from.",
    example: 0,
    column: ["elasticity_sample_size", "integer"],
    wire: same("elasticity_sample_size", Schema.Int)
  }),
  expectedMonthlyImpact: field(Schema.Number, {
    description: "Expected change of monthly profit in minor units at the point estimate.",
    example: 49_200,
    column: ["expected_monthly_impact", "bigint"],
    wire: money("expected_monthly_impact", "currency")
  }),
  acceptedAt: instantOrNull(
    "accepted_at",
    "Set once accept has taken effect; a later accept is then an idempotent repeat."
  ),
  acceptedBy: textOrNull("accepted_by", "Who accepted it."),
  approvedAt: instantOrNull("approved_at", "Set once approve has taken effect."),
  decidedBy: textOrNull("decided_by", "Who decided last (approve, reject)."),
  decidedAt: instantOrNull("decided_at", "When it was decided last."),
  rejectReason: textOrNull("reject_reason", "Why it was rejected."),
  dismissedAt: instantOrNull("dismissed_at", "When it was dismissed."),
  basis: field(NullableBasis, {
    description:
      "The cost, competitor price and policy it rested on; null on recommendations older than this record (a null policy column).",
    example: null,
    columns: {
      columns: [
        Entity.column("basis_cost", "bigint", Schema.NullOr(Schema.Number)),
        Entity.column("basis_competitor_price", "bigint", Schema.NullOr(Schema.Number)),
        Entity.column("basis_policy", "text", NullableString)
      ],
      split: (basis) => [basis?.cost ?? null, basis?.competitorPrice ?? null, basis?.policy ?? null],
      join: ([cost, competitorPrice, policy]) =>
        typeof policy === "string"
          ? { cost: numberOrNull(cost), competitorPrice: numberOrNull(competitorPrice), policy }
          : null
    },
    wire: undefined
  }),
  supersededBy: field(Schema.NullOr(RecommendationId), {
    description: "An accepted recommendation a newer run superseded: the recommendation that replaced it.",
    example: null,
    column: ["superseded_by", "text"],
    wire: same("superseded_by", NullableString)
  }),
  supersededReason: textOrNull("superseded_reason", "Why it was superseded: what changed since it was accepted."),
  ...Entity.versionStamps(exampleCreatedAt)
})

export const Recommendation = RecommendationEntity.schema
export type Recommendation = typeof Recommendation.Type
