/**
 * The catalog import use case over a set of adapters (memory, PostgreSQL): what it keeps, what it
 * counts, what a dry run and a failure leave. One suite, run against every adapter set.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Stream } from "effect"
import { TestClock } from "effect/testing"
import { AuditRepository } from "../audit/AuditRepository.ts"
import type { CatalogFormat } from "../catalog/CatalogImport.ts"
import { CatalogImports } from "../catalog/CatalogImports.ts"
import { CatalogRepository } from "../catalog/CatalogRepository.ts"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { catalogBySku, itemOf } from "./CatalogItems.ts"
import { columnsOfMask, fieldColumns, partialJsonLine, unmentionedFieldsKept } from "./PartialImports.ts"
import { seedWorkspace } from "./Seed.ts"

export type CatalogImportSuiteServices =
  | CatalogImports
  | CatalogRepository
  | WorkspaceRepository
  | IdGenerator
  | AuditRepository

const operator = { _tag: "SystemActor", name: "suite" } as const

export const importLines = (
  workspaceId: WorkspaceId,
  format: CatalogFormat,
  lines: ReadonlyArray<string>,
  dryRun = false
) =>
  CatalogImports.use((imports) =>
    imports.run({ workspaceId, format, lines: Stream.fromIterable(lines), dryRun, actor: operator })
  )

const allItems = catalogBySku

/** A full line of a new item, every column given. */
const fullLine = (sku: string, price: string) =>
  JSON.stringify({
    sku,
    title: `Item ${sku}`,
    tags: ["kitchen", "mugs"],
    currency: "USD",
    price,
    cost: "4.00",
    compare_at_price: "15.00",
    min_price: "5.00",
    max_price: "30.00",
    inventory: 12,
    units_sold_30d: 9,
    store_product_ref: `p-${sku}`,
    store_variant_ref: `v-${sku}`,
    competitor_price: "9.50"
  })

export const catalogImportSuite = <E>(name: string, services: Layer.Layer<CatalogImportSuiteServices, E>) =>
  layer(services, { timeout: 120_000 })(`CatalogImports (${name})`, (it) => {
    it.effect(
      "a partial file in every combination of columns changes what it mentions and nothing else",
      () =>
        Effect.gen(function* () {
          const workspace = yield* seedWorkspace()
          const combinations = 2 ** fieldColumns.length
          const skuOf = (mask: number) => `P-${mask}`
          const seeded = yield* importLines(
            workspace.id,
            "jsonl",
            Array.from({ length: combinations }, (_, mask) => fullLine(skuOf(mask), "10.00"))
          )
          assert.strictEqual(seeded.summary.created, combinations)
          const before = yield* allItems(workspace.id)
          // One JSONL line per combination: each line names its own columns.
          const lines = Array.from(
            { length: combinations },
            (_, mask) => partialJsonLine(columnsOfMask(mask), itemOf(before, skuOf(mask))).line
          )
          const { summary } = yield* importLines(workspace.id, "jsonl", lines)
          assert.deepStrictEqual(
            [summary.rejectedTotal, summary.unchanged],
            [0, 2],
            "only no column, or the currency alone, changes nothing"
          )
          const after = yield* allItems(workspace.id)
          for (let mask = 0; mask < combinations; mask++) {
            const columns = columnsOfMask(mask)
            const item = itemOf(before, skuOf(mask))
            unmentionedFieldsKept(columns, item, itemOf(after, skuOf(mask)), partialJsonLine(columns, item).expected)
          }
        }),
      300_000
    )

    it.effect("counts what it did: created, price, cost, other, unchanged, stale, rejected (line errors)", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.UTC(2026, 0, 1))
        const workspace = yield* seedWorkspace()
        yield* importLines(workspace.id, "csv", [
          "sku,title,currency,price,cost",
          "A,Mug,USD,10.00,4.00",
          "B,Cup,USD,8.00,3.00",
          "C,Jug,USD,20.00,",
          "D,Pot,USD,30.00,9.00"
        ])
        const { summary } = yield* importLines(workspace.id, "csv", [
          "sku,title,price,cost,observed_at",
          "A,,11.00,,", // price
          "B,Big cup,,3.50,", // cost and other
          "C,,20.00,,", // the same state: unchanged
          "D,,25.00,,2001-01-01T00:00:00Z", // observed before the item's price: stale, unchanged
          "E,New,5.00,,", // a new sku without currency: rejected
          "F,,abc,,", // not an amount: rejected
          "",
          "A,,11.00,,"
        ])
        assert.deepStrictEqual(
          { ...summary, rejected: summary.rejected.map(({ line }) => line) },
          {
            created: 0,
            updated: 2,
            priceChanged: 1,
            costChanged: 1,
            otherChanged: 1,
            unchanged: 3,
            stalePrice: 1,
            rejected: [6, 7],
            rejectedTotal: 2
          }
        )
        assert.match(summary.rejected[0]?.error ?? "", /sku E is not in the catalog: a new item needs currency/)
        assert.match(summary.rejected[1]?.error ?? "", /^price: "abc" is not an amount/)
      })
    )

    it.effect("a re-import after a write-back keeps the applied price and adds no history point", () =>
      Effect.gen(function* () {
        const workspace = yield* seedWorkspace()
        const file = ["sku,title,currency,price,cost,units_sold_30d", "W,Mug,USD,10.00,4.00,30"]
        yield* importLines(workspace.id, "csv", file)
        const imported = itemOf(yield* allItems(workspace.id), "W")
        // An approval's write-back applied 12.00 (WriteBackDelivery: CatalogRepository.setPrice).
        yield* CatalogRepository.use((catalog) =>
          catalog.setPrice(workspace.id, imported.id, 1200, imported.createdAt + 1)
        )
        const applied = itemOf(yield* allItems(workspace.id), "W")
        // The units were counted at the import's time: the point says so (PriceHistory).
        assert.deepStrictEqual(applied.priceHistory, [{ price: 1000, units: 30, at: imported.createdAt }])
        const again = yield* importLines(workspace.id, "csv", file)
        assert.deepStrictEqual(
          [again.summary.unchanged, again.summary.stalePrice, again.summary.priceChanged],
          [1, 1, 0]
        )
        const after = itemOf(yield* allItems(workspace.id), "W")
        assert.deepStrictEqual(
          [after.price, after.priceHistory, after.updatedAt],
          [1200, applied.priceHistory, applied.updatedAt]
        )
      })
    )

    it.effect("a dry run answers the same summary and writes nothing, not even its audit event", () =>
      Effect.gen(function* () {
        const workspace = yield* seedWorkspace()
        yield* importLines(workspace.id, "csv", ["sku,title,currency,price", "A,Mug,USD,10.00"])
        const before = yield* allItems(workspace.id)
        const events = yield* AuditRepository.use((audit) => audit.list(workspace.id, { limit: 100, cursor: null }))
        const file = ["sku,title,currency,price", "A,Mug,USD,11.00", "B,Cup,USD,2.00", "B,Cup,USD,3.00", "C,,USD,x"]
        const dry = yield* importLines(workspace.id, "csv", file, true)
        assert.isTrue(dry.dryRun)
        // The dry run is recorded (and only that), so that it can be read back.
        assert.deepStrictEqual(yield* CatalogImports.use((imports) => imports.get(workspace.id, dry.id)), dry)
        assert.deepStrictEqual(yield* allItems(workspace.id), before)
        const eventsAfter = yield* AuditRepository.use((audit) =>
          audit.list(workspace.id, { limit: 100, cursor: null })
        )
        assert.strictEqual(eventsAfter.items.length, events.items.length)
        const real = yield* importLines(workspace.id, "csv", file)
        assert.deepStrictEqual(dry.summary, real.summary)
        assert.deepStrictEqual(yield* CatalogImports.use((imports) => imports.get(workspace.id, real.id)), real)
        assert.deepStrictEqual(
          [real.status, real.format, real.dryRun, real.requestedBy],
          ["succeeded", "csv", false, "system:suite"]
        )
        const elsewhere = yield* seedWorkspace()
        const notFound = yield* Effect.flip(CatalogImports.use((imports) => imports.get(elsewhere.id, real.id)))
        assert.strictEqual(notFound._tag, "ResourceNotFound")
        assert.deepStrictEqual([real.summary.created, real.summary.updated, real.summary.rejectedTotal], [1, 2, 1])
      })
    )

    it.effect("a file that fails midway leaves the catalog as it was: one transaction", () =>
      Effect.gen(function* () {
        const workspace = yield* seedWorkspace()
        yield* importLines(workspace.id, "csv", ["sku,title,currency,price", "A,Mug,USD,10.00"])
        const before = yield* allItems(workspace.id)
        const lines = Stream.concat(
          Stream.fromIterable(["sku,price", "A,11.00", ...Array.from({ length: 5000 }, (_, n) => `N${n},1.00`)]),
          Stream.fail("the connection dropped" as const)
        )
        const failure = yield* Effect.flip(
          CatalogImports.use((imports) =>
            imports.run({ workspaceId: workspace.id, format: "csv", lines, dryRun: false, actor: operator })
          )
        )
        assert.strictEqual(
          failure as "the connection dropped" | RepositoryError | { _tag: string },
          "the connection dropped"
        )
        assert.deepStrictEqual(yield* allItems(workspace.id), before)
      })
    )

    it.effect("refuses a file it cannot read as a catalog, with the reason", () =>
      Effect.gen(function* () {
        const workspace = yield* seedWorkspace()
        const header = yield* Effect.flip(importLines(workspace.id, "csv", ["title,price"]))
        assert.deepStrictEqual([header._tag, header.message], ["InvalidInput", "line 1: header: missing column sku"])
        const empty = yield* Effect.flip(importLines(workspace.id, "csv", []))
        assert.match(empty.message, /the file is empty/)
        const events = yield* AuditRepository.use((audit) => audit.list(workspace.id, { limit: 10, cursor: null }))
        assert.strictEqual(events.items.length, 0)
        const { summary } = yield* importLines(workspace.id, "jsonl", [])
        assert.strictEqual(summary.created + summary.updated + summary.rejectedTotal, 0)
        const recorded = yield* AuditRepository.use((audit) => audit.list(workspace.id, { limit: 10, cursor: null }))
        assert.deepStrictEqual(
          recorded.items.map((event) => [event.action, event.actor]),
          [["catalog.import", "system:suite"]]
        )
      })
    )
  })
