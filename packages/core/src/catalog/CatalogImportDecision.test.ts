import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import * as fc from "fast-check"
import { CurrencyCode } from "../kernel/Money.ts"
import { aCatalogItem, fixtureIds } from "../testing/Fixtures.ts"
import { mentionedColumns, partialLine, unmentionedFieldsKept } from "../testing/PartialImports.ts"
import { csvLineParser } from "./CatalogImport.ts"
import { decideImportLine, type ImportDecision, priceMove } from "./CatalogImportDecision.ts"
import type { CatalogItem } from "./CatalogItem.ts"
import type { CatalogPatch } from "./CatalogPatch.ts"

const now = Date.UTC(2026, 5, 1)
const hour = 3_600_000
const existing = aCatalogItem({ priceSetAt: now - 48 * hour, createdAt: 0, updatedAt: 0 })

const decide = (patch: CatalogPatch, item: CatalogItem | undefined = existing): ImportDecision =>
  decideImportLine(item, patch, fixtureIds.workspace, now)

const updated = (decision: ImportDecision) => {
  if (decision._tag !== "Updated") return assert.fail(`expected an update, got ${JSON.stringify(decision)}`)
  return decision
}

describe("decideImportLine: a line changes what it mentions and nothing else", () => {
  it("in every combination of columns (CSV header), each unmentioned field stays as it was", () => {
    let combinations = 0
    for (const columns of mentionedColumns()) {
      const { header, line, expected } = partialLine(columns, existing)
      const parser = csvLineParser(header)
      if (Result.isFailure(parser)) return assert.fail(parser.failure)
      const parsed = parser.success(line, 2)
      if (parsed._tag !== "Item") return assert.fail(`${header}: ${JSON.stringify(parsed)}`)
      const decision = decide(parsed.patch)
      const after = decision._tag === "Updated" ? decision.item : existing
      unmentionedFieldsKept(columns, existing, after, expected)
      combinations++
    }
    assert.strictEqual(combinations, 2 ** 13)
  })

  it("an empty cell keeps the field; the cell null clears it", () => {
    const parse = (header: string, line: string) => {
      const parser = csvLineParser(header)
      if (Result.isFailure(parser)) return assert.fail(parser.failure)
      const parsed = parser.success(line, 2)
      if (parsed._tag !== "Item") return assert.fail(JSON.stringify(parsed))
      return parsed.patch
    }
    assert.deepStrictEqual(decide(parse("sku,cost,inventory,tags", `${existing.sku},,,`)), {
      _tag: "Unchanged",
      stalePrice: false
    })
    const cleared = updated(decide(parse("sku,cost,inventory,tags", `${existing.sku},null,null,null`))).item
    assert.deepStrictEqual([cleared.cost, cleared.inventory, cleared.tags], [null, null, []])
  })

  it("counts a change by kind: price, cost, other", () => {
    const all = updated(decide({ sku: existing.sku, price: "11.00", cost: "6.00", title: "New" }))
    assert.deepStrictEqual([all.priceChanged, all.costChanged, all.otherChanged], [true, true, true])
    const costOnly = updated(decide({ sku: existing.sku, cost: "6.00" }))
    assert.deepStrictEqual([costOnly.priceChanged, costOnly.costChanged, costOnly.otherChanged], [false, true, false])
    const tagsOnly = updated(decide({ sku: existing.sku, tags: ["garden"] }))
    assert.deepStrictEqual([tagsOnly.priceChanged, tagsOnly.costChanged, tagsOnly.otherChanged], [false, false, true])
  })

  it("re-sending the item's own state is Unchanged: no write, no history point", () => {
    assert.deepStrictEqual(
      decide({ sku: existing.sku, title: existing.title, price: "10.00", cost: "7", tags: ["kitchen"], inventory: 40 }),
      { _tag: "Unchanged", stalePrice: false }
    )
  })

  it("a new sku needs title, currency and price; it is created with what the line gives", () => {
    assert.deepStrictEqual(decideImportLine(undefined, { sku: "NEW", price: "1" }, fixtureIds.workspace, now), {
      _tag: "Rejected",
      error: "sku NEW is not in the catalog: a new item needs title, currency"
    })
    const decision = decideImportLine(
      undefined,
      { sku: "NEW", title: "New", currency: existing.currency, price: "2.50", observedAt: now - hour },
      fixtureIds.workspace,
      now
    )
    if (decision._tag !== "Created") return assert.fail(JSON.stringify(decision))
    assert.deepStrictEqual(
      [decision.item.price, decision.item.cost, decision.item.unitsSold30d, decision.item.priceSetAt],
      [250, null, 0, now - hour]
    )
  })

  it("rejects a currency change, amounts with too many decimals, and an observation from the future", () => {
    assert.match(
      rejectionText(decide({ sku: existing.sku, currency: CurrencyCode.make("EUR") })),
      /currency EUR differs from the item's USD/
    )
    assert.match(rejectionText(decide({ sku: existing.sku, price: "1.999" })), /^price: .*more than 2 decimals/)
    assert.match(rejectionText(decide({ sku: existing.sku, price: "12", observedAt: now + 1 })), /observed_at is later/)
  })
})

const rejectionText = (decision: ImportDecision): string =>
  decision._tag === "Rejected" ? decision.error : assert.fail(`expected a rejection, got ${JSON.stringify(decision)}`)

describe("decideImportLine: a price history point only for a price really in force", () => {
  const writtenBack = aCatalogItem({
    price: 1200,
    writtenBackFrom: 1000,
    priceSetAt: now - hour,
    priceHistory: [
      { price: 900, units: 40 },
      { price: 1000, units: 30 }
    ]
  })

  it("a file made before the write-back does not put the old price back, nor add a point", () => {
    const decision = decide({ sku: writtenBack.sku, price: "10.00", cost: "7.00" }, writtenBack)
    assert.deepStrictEqual(decision, { _tag: "Unchanged", stalePrice: true })
    const withCost = updated(decide({ sku: writtenBack.sku, price: "10.00", cost: "6.50" }, writtenBack))
    assert.deepStrictEqual(
      [withCost.item.price, withCost.item.priceHistory, withCost.item.cost, withCost.stalePrice, withCost.priceChanged],
      [1200, writtenBack.priceHistory, 650, true, false]
    )
  })

  it("a merchant who went back to the old price after the write-back says when, and is heard", () => {
    const decision = updated(decide({ sku: writtenBack.sku, price: "10.00", observedAt: now - 1 }, writtenBack))
    assert.strictEqual(decision.item.price, 1000)
    assert.deepStrictEqual(decision.item.priceHistory.at(-1), { price: 1200, units: writtenBack.unitsSold30d })
    assert.deepStrictEqual([decision.item.priceSetAt, decision.item.writtenBackFrom], [now - 1, null])
  })

  it("any other price is a new price in force from the time of the import, with one point for the outgoing price", () => {
    const decision = updated(decide({ sku: writtenBack.sku, price: "11.00" }, writtenBack))
    assert.deepStrictEqual(decision.item.priceHistory, [...writtenBack.priceHistory, { price: 1200, units: 30 }])
    assert.deepStrictEqual([decision.item.priceSetAt, decision.item.writtenBackFrom], [now, null])
  })

  it("priceMove: same, stale or moved, as a table", () => {
    const item = { price: 1200, priceSetAt: 100, writtenBackFrom: 1000 }
    const table: ReadonlyArray<readonly [number, number | undefined, string]> = [
      [1200, undefined, "same"],
      [1200, 50, "same"],
      [1000, undefined, "stale"],
      [1000, 100, "stale"],
      [1000, 101, "moved"],
      [1100, undefined, "moved"],
      [1100, 99, "stale"],
      [1100, 101, "moved"]
    ]
    for (const [price, observedAt, expected] of table) assert.strictEqual(priceMove(item, price, observedAt), expected)
    assert.strictEqual(priceMove({ ...item, writtenBackFrom: null }, 1000, undefined), "moved")
  })

  const arbitraryLines = fc.array(
    fc.record({
      price: fc.integer({ min: 1, max: 50 }),
      observed: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined })
    }),
    { maxLength: 12 }
  )
  const apply = (
    start: CatalogItem,
    lines: ReadonlyArray<{ readonly price: number; readonly observed?: number | undefined }>
  ) =>
    lines.reduce((item, { price, observed }) => {
      const patch: CatalogPatch = {
        sku: item.sku,
        price: `${price}.00`,
        ...(observed === undefined ? {} : { observedAt: now - 1000 + observed })
      }
      const decision = decideImportLine(item, patch, fixtureIds.workspace, now)
      return decision._tag === "Updated" ? decision.item : item
    }, start)

  it("a point is added only when the price moves, and it is the outgoing price (property)", () => {
    fc.assert(
      fc.property(arbitraryLines, (lines) => {
        let item: CatalogItem = existing
        for (const line of lines) {
          const next = apply(item, [line])
          if (next.price === item.price) assert.deepStrictEqual(next.priceHistory, item.priceHistory)
          else assert.deepStrictEqual(next.priceHistory.at(-1), { price: item.price, units: item.unitsSold30d })
          item = next
        }
      })
    )
  })

  it("re-sending the state an import left adds nothing (property)", () => {
    fc.assert(
      fc.property(arbitraryLines, (lines) => {
        const once = apply(existing, lines)
        const resent = decideImportLine(
          once,
          { sku: once.sku, price: (once.price / 100).toFixed(2), observedAt: once.priceSetAt },
          fixtureIds.workspace,
          now
        )
        assert.deepStrictEqual(resent, { _tag: "Unchanged", stalePrice: false })
        assert.deepStrictEqual(
          decideImportLine(once, { sku: once.sku, price: (once.price / 100).toFixed(2) }, fixtureIds.workspace, now),
          {
            _tag: "Unchanged",
            stalePrice: false
          }
        )
      })
    )
  })

  it("a price observed no later than the item's never moves it (property)", () => {
    fc.assert(
      fc.property(
        arbitraryLines,
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 0, max: 10_000 }),
        (lines, price, earlier) => {
          const item = apply(existing, lines)
          const decision = decideImportLine(
            item,
            { sku: item.sku, price: (price / 100).toFixed(2), observedAt: item.priceSetAt - earlier },
            fixtureIds.workspace,
            now
          )
          const after = decision._tag === "Updated" ? decision.item : item
          assert.deepStrictEqual([after.price, after.priceHistory], [item.price, item.priceHistory])
        }
      )
    )
  })
})

describe("decideImportLine: a sales observation per period (PriceHistory)", () => {
  const day = 24 * hour
  // Units counted 30 days ago, their period recorded before that: the next file brings a new period.
  const counted = aCatalogItem({
    price: 1000,
    unitsSold30d: 30,
    unitsCountedAt: now - 30 * day,
    priceHistory: [{ price: 1000, units: 28, at: now - 60 * day }],
    priceSetAt: now - 90 * day
  })
  const line: CatalogPatch = { sku: counted.sku, price: "10.00", unitsSold30d: 33, observedAt: now }

  it("a new period adds the outgoing state as a point, though the price did not change", () => {
    const { item, priceChanged } = updated(decide(line, counted))
    assert.deepStrictEqual(
      [priceChanged, item.unitsSold30d, item.unitsCountedAt, item.priceHistory],
      [
        false,
        33,
        now,
        [
          { price: 1000, units: 28, at: now - 60 * day },
          { price: 1000, units: 30, at: now - 30 * day }
        ]
      ]
    )
  })

  it("a known period adds nothing: the same file again, or the same count re-sent within the period", () => {
    const { item } = updated(decide(line, counted))
    assert.deepStrictEqual(decide(line, item), { _tag: "Unchanged", stalePrice: false })
    assert.deepStrictEqual(decide({ ...line, observedAt: now - 29 * day, unitsSold30d: 30 }, counted), {
      _tag: "Unchanged",
      stalePrice: false
    })
  })

  it("units counted earlier than the item's are older news: neither taken nor recorded", () => {
    assert.deepStrictEqual(decide({ ...line, observedAt: now - 31 * day }, counted), {
      _tag: "Unchanged",
      stalePrice: false
    })
  })

  it("a newer count within the period replaces the current one without a point (a correction, a daily sync)", () => {
    // Counted 10 days after the newest recorded period: that period is not over yet.
    const daily = { ...counted, unitsCountedAt: now - 50 * day }
    const { item } = updated(decide({ ...line, observedAt: now - 49 * day }, daily))
    assert.deepStrictEqual(
      [item.unitsSold30d, item.unitsCountedAt, item.priceHistory],
      [33, now - 49 * day, counted.priceHistory]
    )
    // The same within an hour of a count whose period is new: a correction, not a period.
    const corrected = updated(decide({ ...line, observedAt: now - 30 * day + hour }, counted)).item
    assert.deepStrictEqual(corrected.priceHistory, counted.priceHistory)
  })

  it("a new price records the outgoing state once, with the competitor price and the time of its units", () => {
    const { item } = updated(decide({ ...line, price: "11.00" }, { ...counted, competitorPrice: 990 }))
    assert.deepStrictEqual(item.priceHistory.at(-1), {
      price: 1000,
      units: 30,
      competitorPrice: 990,
      at: now - 30 * day
    })
    assert.strictEqual(item.priceHistory.length, 2)
  })
})
