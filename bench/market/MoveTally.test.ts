import { assert, describe, it } from "@effect/vitest"
import { addMove, emptyTally, estimateQuality, harmfulOutsideShare, sumTallies } from "./MoveTally.ts"

const move = { harms: false, restores: false, cuts: false, truth: -2, elasticity: -2.5, interval: [-3, -2.2] } as const

describe("MoveTally", () => {
  it("counts harm outside restorations, restorations apart, and the estimates against the truth", () => {
    const tally = emptyTally()
    addMove(tally, move)
    addMove(tally, { ...move, harms: true, cuts: true, elasticity: -1.5, interval: [-2.5, -1] })
    addMove(tally, { ...move, harms: true, restores: true })
    addMove(tally, { ...move, restores: true, elasticity: null, interval: null })
    // A linear curve's demand gone: no elasticity to compare with.
    addMove(tally, { ...move, truth: Number.NEGATIVE_INFINITY })
    assert.deepStrictEqual(
      [tally.adopted, tally.harmful, tally.restorations, tally.harmfulRestorations, tally.cuts, tally.estimated],
      [5, 2, 2, 1, 1, 3]
    )
    assert.closeTo(harmfulOutsideShare(tally), 1 / 3, 1e-12)
    const { bias, error, coverage } = estimateQuality(tally)
    assert.closeTo(bias, (-0.5 + 0.5 - 0.5) / 3, 1e-12)
    assert.closeTo(error, 0.5, 1e-12)
    assert.closeTo(coverage, 1 / 3, 1e-12)
  })

  it("adds tallies up, and reads an empty one as no harm and no estimate", () => {
    const one = emptyTally()
    addMove(one, { ...move, harms: true })
    const total = sumTallies([one, one, emptyTally()])
    assert.deepStrictEqual([total.adopted, total.harmful, total.estimated], [2, 2, 2])
    assert.strictEqual(harmfulOutsideShare(emptyTally()), 0)
    assert.deepStrictEqual(estimateQuality(emptyTally()), { bias: 0, error: 0, coverage: 0 })
  })
})
