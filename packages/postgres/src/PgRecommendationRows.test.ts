import { assert, describe, it } from "@effect/vitest"
import { RecommendationEntity, recommendationStatuses } from "@margin/core/recommendations/Recommendation"
import { Effect } from "effect"
import * as fc from "fast-check"
import { recommendationRows } from "./PgRecommendationRows.ts"
import { chunkOf, columnsOf, firstOf, rowsOf } from "./PgRows.ts"
import { id, instant, nullable, outcome, shown, text } from "./testing/RowArbitraries.ts"

const { values: RowValues, toDomain, fast: fastRow, valuesOf, toRow } = recommendationRows
const bySchema = rowsOf(RowValues, toDomain)
const fast = rowsOf(RowValues, toDomain, fastRow)
const firstBySchema = firstOf(RowValues, toDomain)
const firstFast = firstOf(RowValues, toDomain, fastRow)
const chunkBySchema = chunkOf(RowValues, toDomain)
const chunkFast = chunkOf(RowValues, toDomain, fastRow)

/** Values of every kind that some column may or may not accept. */
const odd = fc.constantFrom<unknown>(
  undefined,
  null,
  "12",
  "0.25",
  "USD",
  "arc",
  "new",
  12n,
  2 ** 60,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  1.5,
  -3,
  1_700_000_000_000,
  new Date(Number.NaN),
  new Date(8.64e15),
  "2026-01-01T00:00:00Z",
  {}
)
const integer = fc.integer({ min: -1_000_000, max: 1_000_000_000 })
const double = fc.double({ noNaN: true, noDefaultInfinity: true })

/** A row as the driver hands it over. */
const wellFormed = fc.record({
  id: id("rec"),
  workspace_id: id("ws"),
  run_id: id("run"),
  item_id: id("itm"),
  sku: text,
  currency: fc.constantFrom("USD", "JPY", "KWD"),
  current_price: integer,
  recommended_price: integer,
  current_margin: nullable(double),
  projected_margin: nullable(double),
  rule: fc.constantFrom("step_limited", "below_floor", "above_target_margin"),
  explanation: text,
  elasticity: double,
  elasticity_source: fc.constantFrom("item", "pooled", "prior"),
  elasticity_sample_size: integer,
  expected_monthly_impact: integer,
  status: fc.constantFrom(...recommendationStatuses),
  accepted_at: nullable(instant),
  accepted_by: nullable(text),
  approved_at: nullable(instant),
  decided_by: nullable(text),
  decided_at: nullable(instant),
  reject_reason: nullable(text),
  dismissed_at: nullable(instant),
  version: integer,
  created_at: instant,
  updated_at: instant,
  elasticity_low: double,
  elasticity_high: double,
  basis_cost: nullable(integer),
  basis_competitor_price: nullable(integer),
  basis_policy: nullable(text),
  superseded_by: nullable(id("rec")),
  superseded_reason: nullable(text)
})

const columns = recommendationRows.columns

/** A well-formed row, or one with a column's value replaced by an odd one (which it may still accept). */
const row = fc.oneof(
  { weight: 1, arbitrary: wellFormed },
  {
    weight: 3,
    arbitrary: fc
      .tuple(wellFormed, fc.constantFrom(...columns), odd)
      .map(([base, column, value]): Record<string, unknown> => ({ ...base, [column]: value }))
  }
)

/** Rows as the driver's values (`statement.values`), in the order of the columns; now and then not an array. */
const rows = fc.array(
  fc.oneof({ weight: 30, arbitrary: row.map(valuesOf) }, { weight: 1, arbitrary: fc.constant(null) }),
  { maxLength: 3 }
)

describe("PgRecommendationRows", () => {
  it.effect("the fast decoder answers what the schema answers, for well-formed and malformed rows alike", () =>
    Effect.gen(function* () {
      let decoded = 0
      for (const sample of fc.sample(rows, { numRuns: 5_000, seed: 20261122 })) {
        const expected = yield* outcome(bySchema(sample))
        if ("ok" in expected) decoded++
        assert.deepStrictEqual(yield* outcome(fast(sample)), expected, shown(sample))
        assert.deepStrictEqual(yield* outcome(firstFast(sample)), yield* outcome(firstBySchema(sample)), shown(sample))
        const [head, ...tail] = sample
        if (head !== undefined) {
          assert.deepStrictEqual(
            yield* outcome(chunkFast([head, ...tail])),
            yield* outcome(chunkBySchema([head, ...tail])),
            shown(sample)
          )
        }
      }
      // The samples reach both sides: rows the schema accepts and rows it refuses.
      assert.isAbove(decoded, 1_000)
      assert.isBelow(decoded, 4_000)
    })
  )

  it("a well-formed row decodes without the schema, each column to its field", () => {
    const at = new Date(1_700_000_000_000)
    const decoded = fastRow(
      valuesOf({
        id: "rec_1",
        workspace_id: "ws_1",
        run_id: "run_1",
        item_id: "itm_1",
        sku: "A",
        currency: "USD",
        current_price: 1000,
        recommended_price: 1099,
        current_margin: 0.25,
        projected_margin: null,
        rule: "step_limited",
        explanation: "why",
        elasticity: -1.2,
        elasticity_source: "item",
        elasticity_sample_size: 4,
        expected_monthly_impact: 300,
        status: "pending_approval",
        accepted_at: at,
        accepted_by: "token:tok_1",
        approved_at: null,
        decided_by: null,
        decided_at: null,
        reject_reason: null,
        dismissed_at: null,
        version: 2,
        created_at: at,
        updated_at: at,
        elasticity_low: -1.5,
        elasticity_high: -0.9,
        basis_cost: 650,
        basis_competitor_price: null,
        basis_policy: "0.35;0.15;0.1;99;0.01;profit;-1.5;0.1",
        superseded_by: null,
        superseded_reason: null
      })
    )
    assert.isDefined(decoded)
    if (decoded === undefined) return
    assert.deepStrictEqual<unknown>(toDomain(decoded), {
      id: "rec_1",
      workspaceId: "ws_1",
      runId: "run_1",
      itemId: "itm_1",
      sku: "A",
      currency: "USD",
      currentPrice: 1000,
      recommendedPrice: 1099,
      currentMargin: 0.25,
      projectedMargin: null,
      rule: "step_limited",
      explanation: "why",
      elasticity: -1.2,
      elasticityInterval: [-1.5, -0.9],
      elasticitySource: "item",
      elasticitySampleSize: 4,
      expectedMonthlyImpact: 300,
      status: "pending_approval",
      acceptedAt: 1_700_000_000_000,
      acceptedBy: "token:tok_1",
      approvedAt: null,
      decidedBy: null,
      decidedAt: null,
      rejectReason: null,
      dismissedAt: null,
      basis: { cost: 650, competitorPrice: null, policy: "0.35;0.15;0.1;99;0.01;profit;-1.5;0.1" },
      supersededBy: null,
      supersededReason: null,
      version: 2,
      createdAt: 1_700_000_000_000,
      updatedAt: 1_700_000_000_000
    })
  })

  it("a recommendation written as a row reads back the same; no basis recorded reads back null", () => {
    const example = RecommendationEntity.example
    const withBasis = { ...example, basis: { cost: 650, competitorPrice: 4100, policy: "p" } }
    for (const recommendation of [example, withBasis]) {
      const decoded = fastRow(valuesOf(toRow(recommendation)))
      assert.isDefined(decoded)
      if (decoded !== undefined) assert.deepStrictEqual(toDomain(decoded), recommendation)
    }
  })

  it("SELECT reads the declared columns, each once, in declaration order", () => {
    assert.deepStrictEqual(columnsOf(recommendationRows.schema).split(", "), columns)
    assert.strictEqual(new Set(columns).size, columns.length)
    assert.deepStrictEqual(Object.keys(toRow(RecommendationEntity.example)), columns)
  })
})
