import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { retryDelay } from "./RetryBackoff.ts"

const backoff = { baseDelayMs: 1_000, maxDelayMs: 60_000 }

describe("retryDelay", () => {
  it("doubles per attempt, from half to all of the step", () => {
    assert.deepStrictEqual(
      [1, 2, 3, 4].map((attempts) => [retryDelay(backoff, attempts, 0), retryDelay(backoff, attempts, 1)]),
      [
        [500, 1_000],
        [1_000, 2_000],
        [2_000, 4_000],
        [4_000, 8_000]
      ]
    )
  })

  it("never exceeds the cap, never falls below half the step, whatever the attempt count", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (attempts, jitter) => {
          const delay = retryDelay(backoff, attempts, jitter)
          const step = Math.min(backoff.maxDelayMs, backoff.baseDelayMs * 2 ** Math.min(Math.max(0, attempts - 1), 30))
          assert.isTrue(delay >= step / 2 && delay <= step && delay <= backoff.maxDelayMs)
        }
      )
    )
  })
})
