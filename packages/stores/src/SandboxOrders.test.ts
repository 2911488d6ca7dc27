import { assert, describe, it } from "@effect/vitest"
import { CurrencyCode } from "@margin/core/kernel/Money"
import { sandboxHistoryMillis, sandboxOrderLines, sandboxPriceAt } from "./SandboxOrders.ts"

const usd = CurrencyCode.make("USD")
const week = 7 * 24 * 60 * 60 * 1000
const now = 3000 * week + week / 3
const variant = { variantRef: "v-A", sku: "A", price: 1000, currency: usd }

describe("SandboxOrders", () => {
  it("a week read again is the same line; nothing older than the sandbox's history", () => {
    const lines = sandboxOrderLines(variant, [], 0, now)
    assert.deepStrictEqual(sandboxOrderLines(variant, [], 0, now), lines)
    assert.isTrue(lines.every((line) => line.soldAt >= now - sandboxHistoryMillis - week && line.soldAt <= now))
    assert.isAtLeast(lines.length, 11)
    assert.strictEqual(new Set(lines.map((line) => line.lineRef)).size, lines.length)
    // The week in progress is dated now, and sells a share of its week.
    assert.strictEqual(lines.at(-1)?.soldAt, now)
  })

  it("each week is charged the price its write-backs say was in force; a higher price sells less", () => {
    const raisedAt = now - 6 * week
    const changes = [{ at: raisedAt, from: 1000, to: 1500 }]
    assert.deepStrictEqual(
      [
        sandboxPriceAt(1500, changes, raisedAt - 1),
        sandboxPriceAt(1500, changes, raisedAt),
        sandboxPriceAt(900, [], 0)
      ],
      [1000, 1500, 900]
    )
    const lines = sandboxOrderLines({ ...variant, price: 1500 }, changes, 0, now)
    const before = lines.filter((line) => line.soldAt < raisedAt - week)
    const after = lines.filter((line) => line.soldAt > raisedAt + week && line.soldAt < now)
    assert.isTrue(before.every((line) => line.unitPrice === "10.00"))
    assert.isTrue(after.every((line) => line.unitPrice === "15.00"))
    const mean = (of: typeof lines) => of.reduce((sum, line) => sum + line.quantity, 0) / of.length
    assert.isBelow(mean(after), mean(before))
  })

  it("an incremental read brings only the weeks ending after its time", () => {
    const since = now - week / 2
    const lines = sandboxOrderLines(variant, [], since, now)
    assert.isAtMost(lines.length, 2)
    assert.isTrue(lines.every((line) => line.soldAt >= since - week))
  })
})
