import { assert, describe, it } from "@effect/vitest"
import { aRun } from "@margin/core/testing/Fixtures"
import { isFinished, progressLine, rateBetween } from "./RunProgress.ts"

const running = aRun({
  status: "running",
  itemsTotal: 1_000_000,
  itemsAnalysed: 500_000,
  recommendationsCount: 61_220,
  alertsCount: 30_115,
  startedAt: 1_000
})

describe("RunProgress", () => {
  it("a running run: the bar, the share, the counts, the pace and the time left", () => {
    assert.strictEqual(
      progressLine(running, 50_000, 20),
      "running   [##########----------]  50%  500,000/1,000,000 items · 61,220 recommendations · 30,115 alerts · 50,000 items/s · 10s left"
    )
  })

  it("before the first chunk: no pace yet, and no total before the run has counted its items", () => {
    const queued = aRun({ status: "queued" })
    assert.strictEqual(
      progressLine(queued, null, 10),
      "queued    [----------]   0%  0 items · 0 recommendations · 0 alerts"
    )
    assert.strictEqual(
      progressLine({ ...running, itemsAnalysed: 0 }, null, 10),
      "running   [----------]   0%  0/1,000,000 items · 61,220 recommendations · 30,115 alerts"
    )
  })

  it("a finished run: a full bar and how long it took; a failed one says why", () => {
    const succeeded = { ...running, status: "succeeded" as const, itemsAnalysed: 1_000_000, finishedAt: 75_000 }
    assert.strictEqual(
      progressLine(succeeded, 13_000, 10),
      "succeeded [##########] 100%  1,000,000/1,000,000 items · 61,220 recommendations · 30,115 alerts · took 1m14s"
    )
    const failed = {
      ...running,
      status: "failed" as const,
      finishedAt: 2_000,
      error: "the workspace ws_b was not found"
    }
    assert.match(
      progressLine(failed, null, 10),
      /^failed .* 50% .* · took 1s · error: the workspace ws_b was not found$/
    )
    assert.isTrue(isFinished(succeeded) && isFinished(failed) && !isFinished(running))
  })

  it("an empty scope is done at once", () => {
    const empty = { ...running, status: "succeeded" as const, itemsTotal: 0, itemsAnalysed: 0, finishedAt: 1_000 }
    assert.match(progressLine(empty, null, 4), /^succeeded \[####\] 100% {2}0\/0 items/)
  })

  it("the pace is items per second between two sightings, none while nothing moved", () => {
    const earlier = { run: running, at: 10_000 }
    assert.strictEqual(rateBetween(earlier, { run: { ...running, itemsAnalysed: 520_000 }, at: 10_500 }), 40_000)
    assert.isNull(rateBetween(earlier, { run: running, at: 11_000 }))
    assert.isNull(rateBetween(earlier, earlier))
  })
})
