import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { formatMoney } from "../kernel/Money.ts"
import { JPY, KWD, USD } from "../testing/PricingFixtures.ts"
import type { RuleCode } from "./PriceRecommendation.ts"
import { analyseCatalog, analyseItem, elasticityPools, type PricingInput } from "./Pricing.ts"
import { PricingObjective, type PricingPolicy, RoundingMode } from "./PricingPolicy.ts"

const amount = fc.integer({ min: 0, max: 2_000_000 })
const optional = <A>(arb: fc.Arbitrary<A>) => fc.option(arb, { nil: null })
/** Null two times in three: limits are the exception on a catalog. */
const sometimes = <A>(arb: fc.Arbitrary<A>) =>
  fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb })
/** Thousandths, as a policy form would store them. */
const ratio = (min: number, max: number) => fc.integer({ min: min * 1000, max: max * 1000 }).map((n) => n / 1000)

const policies: fc.Arbitrary<PricingPolicy> = fc
  .record({
    targetMargin: ratio(0, 0.95),
    minShare: ratio(0, 1),
    maxChangePct: ratio(0.01, 1.5),
    rounding: fc.constantFrom(...RoundingMode.literals),
    threshold: ratio(0, 0.2),
    objective: fc.constantFrom(...PricingObjective.literals),
    defaultElasticity: ratio(-4, -0.1),
    maxPremiumOverCompetitor: sometimes(ratio(0, 0.3)),
    minExpectedGain: ratio(0, 0.05)
  })
  .map(({ minShare, ...policy }) => ({
    ...policy,
    minMargin: Math.round(policy.targetMargin * minShare * 1000) / 1000
  }))

// Limits and costs near the price, where the guardrails interact, and anywhere at all.
const near = (price: number) => fc.integer({ min: Math.floor(price * 0.5), max: Math.ceil(price * 1.5) + 1 })
const inputs: fc.Arbitrary<PricingInput> = amount.chain((price) =>
  fc.record({
    itemId: fc.constant("item"),
    sku: fc.constantFrom("A", "B", "a", "SKU-1", ""),
    currency: fc.constantFrom(USD, JPY, KWD),
    price: fc.constant(price),
    cost: optional(fc.oneof(near(price), amount)),
    minPrice: sometimes(fc.oneof(near(price), amount)),
    maxPrice: sometimes(fc.oneof(near(price), amount)),
    unitsSold30d: fc.integer({ min: 0, max: 10_000 }),
    previousCost: optional(amount),
    storePrice: optional(amount),
    priceHistory: fc.array(fc.record({ price: near(price), units: fc.integer({ min: 0, max: 1000 }) }), {
      maxLength: 6
    }),
    tags: fc.subarray(["a", "b", "c"]),
    competitorPrice: sometimes(fc.oneof(near(price), amount))
  })
)

const raises: ReadonlyArray<RuleCode> = [
  "below_target_margin",
  "below_profit_optimum",
  "below_floor",
  "floor_exceeds_step"
]
const cuts: ReadonlyArray<RuleCode> = [
  "above_target_margin",
  "above_profit_optimum",
  "above_ceiling",
  "above_competitor_limit",
  "ceiling_exceeds_step"
]
/** The competitor positioning limit of an item under a policy, if any. */
const competitorCeiling = (input: PricingInput, policy: PricingPolicy): number =>
  input.competitorPrice !== null && input.competitorPrice > 0 && policy.maxPremiumOverCompetitor !== null
    ? input.competitorPrice * (1 + policy.maxPremiumOverCompetitor)
    : Number.POSITIVE_INFINITY
const tolerance = 1e-6

describe("Pricing properties", () => {
  it("never recommends below the floor or above the ceiling", () => {
    fc.assert(
      fc.property(inputs, policies, (input, policy) => {
        const recommended = analyseItem(input, policy).recommendation?.recommendedPrice
        if (recommended === undefined) return
        assert.isTrue(Number.isSafeInteger(recommended) && recommended >= 0)
        if (input.minPrice !== null) assert.isAtLeast(recommended, input.minPrice)
        if (input.maxPrice !== null) assert.isAtMost(recommended, input.maxPrice)
        assert.isAtMost(recommended, competitorCeiling(input, policy) + tolerance)
        // The minimum margin: recommended * (1 - minMargin) >= cost.
        if (input.cost !== null)
          assert.isAtLeast(recommended * (1 - policy.minMargin), input.cost - tolerance * input.cost)
      }),
      { numRuns: 2000 }
    )
  })

  it("moves at most one step, unless the floor or ceiling wins, which the rule then says", () => {
    fc.assert(
      fc.property(inputs, policies, (input, policy) => {
        const recommendation = analyseItem(input, policy).recommendation
        if (recommendation === null) return
        const { recommendedPrice: to, rule } = recommendation
        const up = input.price * (1 + policy.maxChangePct)
        const down = input.price * (1 - policy.maxChangePct)
        if (rule === "floor_exceeds_step") assert.isAbove(to, up - tolerance)
        else if (rule === "ceiling_exceeds_step") assert.isBelow(to, down + tolerance)
        else {
          assert.isAtMost(to, up + tolerance)
          assert.isAtLeast(to, down - tolerance)
        }
      }),
      { numRuns: 2000 }
    )
  })

  it("moves the way its rule says, and by more than the threshold unless a limit is broken", () => {
    fc.assert(
      fc.property(inputs, policies, (input, policy) => {
        const analysis = analyseItem(input, policy)
        const recommendation = analysis.recommendation
        if (recommendation === null) return
        const { recommendedPrice: to, rule } = recommendation
        assert.notStrictEqual(to, input.price)
        if (raises.includes(rule)) assert.isAbove(to, input.price)
        if (cuts.includes(rule)) assert.isBelow(to, input.price)
        const breaksLimit =
          analysis.alerts.some((alert) => alert.kind === "below_floor") ||
          (input.maxPrice !== null && input.price > input.maxPrice) ||
          input.price > Math.floor(competitorCeiling(input, policy) + 1e-9)
        if (!breaksLimit) assert.isAbove(Math.abs(to - input.price), policy.threshold * input.price)
        assert.isTrue(Number.isInteger(recommendation.expectedMonthlyImpact))
        assert.include(recommendation.explanation, formatMoney(to, input.currency))
      }),
      { numRuns: 2000 }
    )
  })

  it("under the profit objective, expects every move to pay unless it restores a broken limit", () => {
    const catalogs = fc.array(inputs, { minLength: 1, maxLength: 30 })
    fc.assert(
      fc.property(catalogs, policies, (catalog, policy) => {
        const profit: PricingPolicy = { ...policy, objective: "profit" }
        const analysis = analyseCatalog(
          catalog.map((item, index) => ({ ...item, itemId: `item_${index}` })),
          profit
        )
        for (const item of analysis.items) {
          const recommendation = item.recommendation
          if (recommendation === null) continue
          const input = catalog[Number(item.itemId.slice(5))]
          if (input === undefined) continue
          const restoration =
            item.alerts.some((alert) => alert.kind === "below_floor") ||
            (input.maxPrice !== null && input.price > input.maxPrice) ||
            input.price > Math.floor(competitorCeiling(input, profit) + 1e-9)
          if (!restoration) assert.isAbove(recommendation.expectedMonthlyImpact, 0)
          const [low, high] = recommendation.elasticityInterval
          assert.isAtMost(low, recommendation.elasticity)
          assert.isAtLeast(high, recommendation.elasticity)
        }
      }),
      { numRuns: 500 }
    )
  })

  it("claims no profit for an item that sold nothing: under profit it only moves to restore a limit", () => {
    fc.assert(
      fc.property(inputs, policies, (input, policy) => {
        const unsold = { ...input, unitsSold30d: 0 }
        const analysis = analyseItem(unsold, policy)
        const recommendation = analysis.recommendation
        if (recommendation === null) return
        assert.notInclude(["below_profit_optimum", "above_profit_optimum"], recommendation.rule)
        assert.notInclude(recommendation.explanation, "profit-maximising")
        assert.notInclude(recommendation.explanation, "change +")
        assert.include(recommendation.explanation, "no units sold in the last 30 days")
        if (policy.objective === "profit" && unsold.cost !== null && unsold.cost > 0) {
          const restoration =
            analysis.alerts.some((alert) => alert.kind === "below_floor") ||
            (unsold.maxPrice !== null && unsold.price > unsold.maxPrice) ||
            unsold.price > Math.floor(competitorCeiling(unsold, policy) + 1e-9)
          assert.isTrue(restoration, recommendation.explanation)
        }
      }),
      { numRuns: 2000 }
    )
  })

  it("names the competitor's price in every explanation of an item that has one", () => {
    fc.assert(
      fc.property(inputs, policies, fc.integer({ min: 1, max: 2_000_000 }), (input, policy, competitor) => {
        const recommendation = analyseItem({ ...input, competitorPrice: competitor }, policy).recommendation
        if (recommendation === null) return
        assert.include(recommendation.explanation, `the competitor's ${formatMoney(competitor, input.currency)}`)
      }),
      { numRuns: 2000 }
    )
  })

  it("gives no price when the floor is above the ceiling", () => {
    fc.assert(
      fc.property(inputs, policies, (input, policy) => {
        const analysis = analyseItem(input, policy)
        const conflict = analysis.alerts.some((alert) => alert.kind === "floor_above_ceiling")
        if (conflict) assert.isNull(analysis.recommendation)
        if (input.maxPrice !== null && input.minPrice !== null && input.minPrice > input.maxPrice)
          assert.isTrue(conflict)
      }),
      { numRuns: 1000 }
    )
  })

  it("answers the same for a reshuffled catalog", () => {
    const catalogs = fc
      .array(inputs, { maxLength: 40 })
      .map((items) => items.map((item, index) => ({ ...item, itemId: `item_${index}` })))
      .chain((items) =>
        fc.tuple(fc.constant(items), fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length }))
      )
    fc.assert(
      fc.property(catalogs, policies, ([catalog, reshuffled], policy) => {
        const analysis = analyseCatalog(catalog, policy)
        assert.deepStrictEqual(analyseCatalog(reshuffled, policy), analysis)
        assert.deepStrictEqual(
          analysis.items,
          analysis.items.map((item) => {
            const input = catalog.find((candidate) => candidate.itemId === item.itemId)
            return input === undefined
              ? item
              : analyseItem(input, policy, elasticityPools(catalog, policy.defaultElasticity))
          })
        )
      }),
      { numRuns: 300 }
    )
  })
})
