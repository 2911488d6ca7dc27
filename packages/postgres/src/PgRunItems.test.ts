import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import * as fc from "fast-check"
import { RunItemRow, toRunItem } from "./PgCatalogRepository.ts"
import { rowsOf } from "./PgRows.ts"
import { fastRunItems } from "./PgRunItems.ts"

const bySchema = rowsOf(RunItemRow, toRunItem)
const fast = fastRunItems(bySchema)

const count = fc.nat({ max: 10_000_000 })
/** What the driver may hand over for an integer column, and values no column should hold. */
const integer = fc.oneof(
  { weight: 8, arbitrary: count },
  { weight: 1, arbitrary: fc.constantFrom(-1, 1.5, Number.NaN, 2 ** 60, "12", 12n, undefined) }
)
const nullableInteger = fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 4, arbitrary: integer })
const pricePoint = fc.record({ price: integer, units: integer })

const row = fc.record({
  id: fc.oneof(
    { weight: 9, arbitrary: fc.string({ minLength: 1 }).map((s) => `itm_${s}`) },
    { weight: 1, arbitrary: fc.constant(7) }
  ),
  sku: fc.oneof({ weight: 9, arbitrary: fc.string() }, { weight: 1, arbitrary: fc.constant(null) }),
  currency: fc.constantFrom("USD", "USD", "JPY", "KWD", "usd", "EURO", 3),
  price: integer,
  cost: nullableInteger,
  min_price: nullableInteger,
  max_price: nullableInteger,
  units_sold_30d: integer,
  analysed_cost: nullableInteger,
  price_history: fc.oneof(
    { weight: 8, arbitrary: fc.array(pricePoint, { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom(null, "[]", [null]) }
  ),
  tags: fc.oneof(
    { weight: 8, arbitrary: fc.array(fc.constantFrom("a", "b c", "d-e"), { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom(null, [3], ["a;b"]) }
  ),
  competitor_price: nullableInteger
})

const chunk = fc.array(fc.oneof({ weight: 20, arbitrary: row }, { weight: 1, arbitrary: fc.constant(null) }), {
  maxLength: 6
})

const outcome = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.map(Effect.result(effect), (result) => (Result.isSuccess(result) ? { ok: result.success } : { failed: true }))

describe("PgRunItems", () => {
  it.effect("the fast decoder answers what the schema answers, for well-formed and malformed rows alike", () =>
    Effect.gen(function* () {
      for (const rows of fc.sample(chunk, { numRuns: 2_000, seed: 20250601 })) {
        assert.deepStrictEqual(
          yield* outcome(fast(rows)),
          yield* outcome(bySchema(rows)),
          JSON.stringify(rows, (_, v) => (typeof v === "bigint" ? `${v}n` : v))
        )
      }
    })
  )

  it.effect("a well-formed chunk decodes without the schema", () =>
    Effect.gen(function* () {
      const rows = [
        {
          id: "itm_1",
          sku: "A",
          currency: "USD",
          price: 1000,
          cost: null,
          min_price: 900,
          max_price: null,
          units_sold_30d: 3,
          analysed_cost: 650,
          price_history: [{ price: 900, units: 4 }],
          tags: ["a"],
          competitor_price: 950
        }
      ]
      const refusing = fastRunItems(() => Effect.die("the schema was used"))
      assert.deepStrictEqual(yield* refusing(rows), yield* bySchema(rows))
    })
  )
})
