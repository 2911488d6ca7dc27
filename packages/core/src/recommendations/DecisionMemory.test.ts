/** What a run makes of an item's latest decision (DecisionMemory.recall): a table, each row by hand. */
import { assert, describe, it } from "@effect/vitest"
import { RecommendationId } from "../kernel/Ids.ts"
import type { PriceRecommendation } from "../pricing/PriceRecommendation.ts"
import type { PricingInput } from "../pricing/Pricing.ts"
import { pricingPolicy, USD } from "../testing/PricingFixtures.ts"
import { decidedStatuses, type PriorDecision, recall, whatChanged } from "./DecisionMemory.ts"
import { recommendationStatuses } from "./Recommendation.ts"
import { policyChanges, policyKey } from "./RecommendationBasis.ts"

const policy = policyKey(pricingPolicy())

/** The item as the run sees it now: 10.00 USD, cost 7.00, no competitor. */
const item: Pick<PricingInput, "price" | "cost" | "competitorPrice" | "currency"> = {
  price: 1000,
  cost: 700,
  competitorPrice: null,
  currency: USD
}

/** The engine's recommendation for it this run: 10.99, elasticity −1.50 [−2.49, −0.51]. */
const made: PriceRecommendation = {
  currentPrice: 1000,
  recommendedPrice: 1099,
  currency: USD,
  currentMargin: 0.3,
  projectedMargin: 399 / 1099,
  rule: "below_target_margin",
  explanation: "Margin 30.0% is below the 35.0% target.",
  elasticity: -1.5,
  elasticityInterval: [-2.49, -0.51],
  elasticitySource: "prior",
  elasticitySampleSize: 0,
  expectedMonthlyImpact: 4632
}

const earlier = RecommendationId.make("rec_earlier")

/** The decision the merchant took on the same recommendation a run ago: the same price, cost and policy. */
const decision = (overrides: Partial<PriorDecision> = {}): PriorDecision => ({
  id: earlier,
  itemId: "itm_1",
  status: "rejected",
  currency: USD,
  currentPrice: 1000,
  recommendedPrice: 1099,
  elasticity: -1.5,
  elasticityInterval: [-2.49, -0.51],
  basis: { cost: 700, competitorPrice: null, policy },
  ...overrides
})

const withNote = (note: string): PriceRecommendation => ({ ...made, explanation: `${made.explanation} ${note}` })

interface Row {
  readonly name: string
  readonly decision: PriorDecision | null
  readonly item?: Partial<typeof item>
  readonly policy?: string
  readonly made?: PriceRecommendation | null
  readonly issued: PriceRecommendation | null
  readonly supersedes?: { readonly id: RecommendationId; readonly reason: string }
}

const otherPolicy = policyKey(pricingPolicy({ targetMargin: 0.3, maxPremiumOverCompetitor: null }))

const table: ReadonlyArray<Row> = [
  { name: "no decision: issued as made", decision: null, issued: made },
  {
    name: "the engine recommends nothing: nothing, whatever was decided",
    decision: decision(),
    made: null,
    issued: null
  },
  { name: "rejected, nothing changed: not issued again", decision: decision(), issued: null },
  { name: "dismissed, nothing changed: not issued again", decision: decision({ status: "dismissed" }), issued: null },
  {
    name: "rejected, the cost changed: issued, saying so",
    decision: decision(),
    item: { cost: 750 },
    issued: withNote(
      "Issued again after the recommendation of 10.99 USD was rejected: the cost went from 7.00 USD to 7.50 USD."
    )
  },
  {
    name: "dismissed, the price changed: issued, saying so",
    decision: decision({ status: "dismissed", currentPrice: 950 }),
    issued: withNote(
      "Issued again after the recommendation of 10.99 USD was dismissed: the price went from 9.50 USD to 10.00 USD."
    )
  },
  {
    name: "rejected, a competitor price appeared",
    decision: decision(),
    item: { competitorPrice: 1050 },
    issued: withNote(
      "Issued again after the recommendation of 10.99 USD was rejected: the competitor's price went from none to 10.50 USD."
    )
  },
  {
    name: "rejected, the policy changed: its fields named",
    decision: decision(),
    policy: otherPolicy,
    issued: withNote(
      "Issued again after the recommendation of 10.99 USD was rejected: the policy changed (target_margin 0.35 -> 0.3, max_premium_over_competitor 0.1 -> none)."
    )
  },
  {
    name: "rejected, the estimate moved within the interval it had: not material, not issued",
    decision: decision({ elasticity: -1.2, elasticityInterval: [-1.5, -0.9] }),
    issued: null
  },
  {
    name: "rejected, the estimate moved outside the interval it had: material, issued",
    decision: decision({ elasticity: -2.1, elasticityInterval: [-2.4, -1.8] }),
    issued: withNote(
      "Issued again after the recommendation of 10.99 USD was rejected: the elasticity estimate moved to -1.50, outside the 90% interval -2.40 to -1.80 of then."
    )
  },
  {
    name: "rejected, several things changed: each named, in order",
    decision: decision({ currentPrice: 990 }),
    item: { cost: 720, competitorPrice: 1200 },
    issued: withNote(
      "Issued again after the recommendation of 10.99 USD was rejected: the price went from 9.90 USD to 10.00 USD; the cost went from 7.00 USD to 7.20 USD; the competitor's price went from none to 12.00 USD."
    )
  },
  {
    name: "rejected before bases were recorded: only the price and the estimate can tell",
    decision: decision({ basis: null }),
    item: { cost: 750, competitorPrice: 1200 },
    issued: null
  },
  {
    name: "accepted, nothing changed: the accepted one stays",
    decision: decision({ status: "pending_approval" }),
    issued: null
  },
  {
    name: "accepted, the cost changed: issued, superseding the accepted one, with a note on each",
    decision: decision({ status: "pending_approval" }),
    item: { cost: 750 },
    issued: withNote("Supersedes the accepted recommendation of 10.99 USD: the cost went from 7.00 USD to 7.50 USD."),
    supersedes: {
      id: earlier,
      reason: "Superseded by a newer run's recommendation of 10.99 USD: the cost went from 7.00 USD to 7.50 USD."
    }
  },
  {
    name: "approved, its write-back under way: nothing, even when something changed",
    decision: decision({ status: "approved" }),
    item: { cost: 750 },
    issued: null
  },
  { name: "applied: the decision is done, issued as made", decision: decision({ status: "applied" }), issued: made },
  {
    name: "write-back failed: issued as made",
    decision: decision({ status: "write_back_failed" }),
    issued: made
  }
]

describe("DecisionMemory.recall", () => {
  for (const row of table) {
    it(row.name, () => {
      const recalled = recall(
        row.decision,
        { ...item, ...row.item },
        row.policy ?? policy,
        row.made === undefined ? made : row.made
      )
      assert.deepStrictEqual(recalled, { recommendation: row.issued, supersedes: row.supersedes ?? null })
    })
  }

  it("every decided status has a row; new and superseded are never decisions", () => {
    const covered = new Set(table.flatMap((row) => (row.decision === null ? [] : [row.decision.status])))
    assert.deepStrictEqual(
      recommendationStatuses.filter((status) => decidedStatuses.includes(status)),
      [...decidedStatuses]
    )
    for (const status of decidedStatuses) assert.isTrue(covered.has(status), status)
    assert.notInclude(decidedStatuses, "new")
    assert.notInclude(decidedStatuses, "superseded")
  })

  it("the estimate's interval ends are inside it: only a point beyond them is material", () => {
    const at = (elasticity: number) => whatChanged(decision(), item, policy, elasticity)
    assert.deepStrictEqual([at(-2.49), at(-0.51)], [[], []])
    assert.strictEqual(at(-2.5).length, 1)
    assert.strictEqual(at(-0.5).length, 1)
  })
})

describe("policyKey", () => {
  it("writes the values in a fixed order, short; equal policies give equal keys", () => {
    assert.strictEqual(policy, "0.35;0.15;0.1;99;0.01;profit;-1.5;0.1")
    assert.strictEqual(policyKey({ ...pricingPolicy(), maxPremiumOverCompetitor: null }).endsWith(";none"), true)
    assert.deepStrictEqual(policyChanges(policy, policy), [])
    assert.deepStrictEqual(policyChanges(policy, policyKey(pricingPolicy({ rounding: "none", threshold: 0.02 }))), [
      "rounding 99 -> none",
      "threshold 0.01 -> 0.02"
    ])
  })
})
