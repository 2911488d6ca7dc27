import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { usagePeriod } from "./UsagePeriod.ts"

describe("usagePeriod", () => {
  it("is the UTC calendar month of the instant", () => {
    const period = usagePeriod(Date.parse("2025-02-14T23:59:59.999Z"))
    assert.deepStrictEqual(period, {
      start: Date.parse("2025-02-01T00:00:00Z"),
      end: Date.parse("2025-03-01T00:00:00Z")
    })
  })

  it("rolls over the year", () => {
    const period = usagePeriod(Date.parse("2024-12-31T12:00:00Z"))
    assert.deepStrictEqual(period, {
      start: Date.parse("2024-12-01T00:00:00Z"),
      end: Date.parse("2025-01-01T00:00:00Z")
    })
  })

  it("always contains the instant, and the next period starts where it ends", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (now) => {
        const period = usagePeriod(now)
        assert.isTrue(period.start <= now && now < period.end)
        assert.strictEqual(usagePeriod(period.end).start, period.end)
      })
    )
  })
})
