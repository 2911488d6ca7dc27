import { assert, describe, it } from "@effect/vitest"
import { competitorPath, competitorShare, promotion } from "./CompetitorPath.ts"

describe("CompetitorPath", () => {
  const paths = Array.from({ length: 2_000 }, (_, index) => competitorPath(5, index, 10_000, -4, 12))

  it("gives a competitor to about 60 % of items, one price per period", () => {
    const withOne = paths.filter((path) => path !== null)
    assert.closeTo(withOne.length / paths.length, competitorShare, 0.04)
    for (const path of withOne) assert.strictEqual(path.length, 17)
  })

  it("wanders near the item's price and runs promotions now and then", () => {
    let promotions = 0
    let periods = 0
    for (const path of paths) {
      if (path === null) continue
      for (const [index, price] of path.entries()) {
        assert.isTrue(Number.isInteger(price) && price > 4_000 && price < 25_000, String(price))
        const before = path[index - 1]
        const after = path[index + 1]
        // A one-period dip of at least 10 % that comes back: a promotion (the walk moves 3 % a period).
        if (before !== undefined && after !== undefined && price < before * 0.9 && price < after * 0.9) promotions++
        periods++
      }
    }
    assert.isAbove(promotions / periods, promotion.chance / 3)
    assert.isBelow(promotions / periods, promotion.chance)
  })
})
