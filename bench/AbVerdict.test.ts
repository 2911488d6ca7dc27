import { assert, describe, it } from "@effect/vitest"
import { gainsOf, quantile, spreadOf, verdictOf } from "./AbVerdict.ts"

/** A slice of `requests` answered in one second for `cpuMs` of the server's CPU. */
const slice = (requests: number, cpuMs: number | null) => ({
  latencies: Array.from({ length: requests }, () => 1),
  elapsedMs: 1000,
  cpuMs
})

describe("AbVerdict", () => {
  it("quantiles interpolate between neighbours", () => {
    assert.strictEqual(quantile([1, 2, 3, 4], 0.5), 2.5)
    assert.strictEqual(quantile([1, 2, 3, 4, 5], 0.25), 2)
    assert.isNaN(quantile([], 0.5))
  })

  it("pairs slices by index: the variant's rate gain and its CPU gain per request", () => {
    const gains = gainsOf([slice(100, 200), slice(100, 200)], [slice(120, 200), slice(110, 110)])
    assert.strictEqual(gains.rate.pairs, 2)
    assert.closeTo(gains.rate.median, 0.15, 1e-9)
    // 2 ms per request against 200/120 and 1 ms: gains of 20 % and 100 %.
    assert.closeTo(gains.cpu.median, 0.6, 1e-9)
    assert.strictEqual(gains.cpu.won, 1)
  })

  it("slices without requests or CPU readings make no pair", () => {
    const gains = gainsOf([slice(0, 10), slice(100, null)], [slice(100, 10), slice(100, 10)])
    assert.strictEqual(gains.rate.pairs, 1)
    assert.strictEqual(gains.cpu.pairs, 0)
    assert.strictEqual(verdictOf(gains.cpu), "no pairs")
  })

  it("calls the 5 % bar both ways, and says when the spread is too wide to call", () => {
    assert.strictEqual(verdictOf(spreadOf([0.06, 0.08, 0.1, 0.12])), "gains >= 5 %")
    assert.strictEqual(verdictOf(spreadOf([-0.12, -0.1, -0.08, -0.06])), "loses >= 5 %")
    assert.strictEqual(verdictOf(spreadOf([-0.02, 0, 0.01, 0.03])), "within 5 %")
    assert.strictEqual(verdictOf(spreadOf([-0.3, -0.1, 0.1, 0.3])), "too noisy to call")
  })
})
