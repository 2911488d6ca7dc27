import { assert, describe, it } from "@effect/vitest"
import { demandShocks, seasonAmplitude, seasonLength, shockNoise, trendLimit } from "./DemandShocks.ts"

describe("DemandShocks", () => {
  it("moves each category's demand by a season, a trend and noise, within their bounds", () => {
    const shocks = demandShocks(3, 8, -4, 12)
    assert.strictEqual(shocks.length, 8)
    for (const path of shocks) {
      assert.strictEqual(path.length, 17)
      for (const [offset, shock] of path.entries()) {
        const period = offset - 4
        const trend = (1 + trendLimit) ** Math.abs(period)
        const noise = Math.exp(4 * shockNoise)
        assert.isAbove(shock, (1 - seasonAmplitude.high) / trend / noise)
        assert.isBelow(shock, (1 + seasonAmplitude.high) * trend * noise)
      }
      // A season: over a year some period is well above another.
      const year = path.slice(4, 4 + seasonLength)
      assert.isAbove(Math.max(...year) / Math.min(...year), 1 + seasonAmplitude.low)
    }
  })

  it("differs between categories and is the same for the same seed", () => {
    const shocks = demandShocks(3, 2, 0, 6)
    assert.notDeepEqual(shocks[0], shocks[1])
    assert.deepStrictEqual(demandShocks(3, 2, 0, 6), shocks)
    assert.notDeepEqual(demandShocks(4, 2, 0, 6), shocks)
  })
})
