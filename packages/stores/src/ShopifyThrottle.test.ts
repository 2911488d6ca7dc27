import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fc from "fast-check"
import { availableAt, type Bucket, makeShopifyThrottle, reserve } from "./ShopifyThrottle.ts"

const bucket: Bucket = { maximum: 1000, available: 100, restoreRate: 50, at: 0 }

describe("ShopifyThrottle", () => {
  it("restores points at the restore rate, up to the maximum", () => {
    assert.strictEqual(availableAt(bucket, 1000), 150)
    assert.strictEqual(availableAt(bucket, 60_000), 1000)
  })

  it("waits exactly until the missing points are restored", () => {
    assert.strictEqual(reserve(bucket, 100, 0).waitMillis, 0)
    // 150 wanted, 100 there: 50 points at 50/s is one second.
    assert.strictEqual(reserve(bucket, 150, 0).waitMillis, 1000)
    assert.strictEqual(reserve({ ...bucket, restoreRate: 0 }, 150, 0).waitMillis, Infinity)
  })

  it("consecutive reservations queue: n calls of cost c wait for n*c points in all", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 200 }), (calls, cost) => {
        let current: Bucket = { maximum: 1000, available: 0, restoreRate: 50, at: 0 }
        let lastWait = 0
        for (let i = 0; i < calls; i++) {
          const reserved = reserve(current, cost, 0)
          current = reserved.bucket
          lastWait = reserved.waitMillis
        }
        return lastWait === Math.ceil(((calls * cost) / 50) * 1000)
      })
    )
  })

  it.effect("paces only shops it has heard from, with the cost last reported for the operation", () =>
    Effect.gen(function* () {
      const throttle = yield* makeShopifyThrottle
      assert.strictEqual(yield* throttle.reserve("a.myshopify.com", "Read", 0), 0)
      yield* throttle.observe(
        "a.myshopify.com",
        "Read",
        { requestedQueryCost: 20, throttleStatus: { maximumAvailable: 100, currentlyAvailable: 10, restoreRate: 10 } },
        0
      )
      assert.strictEqual(yield* throttle.reserve("a.myshopify.com", "Read", 0), 1000)
      assert.strictEqual(yield* throttle.reserve("b.myshopify.com", "Read", 0), 0)
    })
  )
})
