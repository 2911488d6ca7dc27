import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { csvHeader } from "@margin/core/CatalogImport"
import { WorkspaceId } from "@margin/core/Ids"
import * as MemoryAdapters from "@margin/core/memory/MemoryAdapters"
import { CatalogRepository } from "@margin/core/ports/CatalogRepository"
import { WorkspaceRepository } from "@margin/core/ports/WorkspaceRepository"
import { aWorkspace } from "@margin/core/testing/Fixtures"
import { Effect, Layer } from "effect"
import { importCatalogFile } from "./CatalogImporter.ts"

const workspaceId = WorkspaceId.make("ws_import")

const file = (name: string, lines: ReadonlyArray<string>): string => {
  const path = join(mkdtempSync(join(tmpdir(), "importer-")), name)
  writeFileSync(path, lines.map((text) => `${text}\n`).join(""))
  return path
}

const line = (sku: string, price: string) => `${sku},Item ${sku},tag,USD,${price},1,,,,,`

const withWorkspace = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  WorkspaceRepository.use((workspaces) => workspaces.insert(aWorkspace({ id: workspaceId }))).pipe(
    Effect.andThen(effect),
    Effect.provide(Layer.mergeAll(MemoryAdapters.layer, NodeServices.layer))
  )

describe("importCatalogFile", () => {
  it.effect("upserts in batches; a sku repeated in the file is updated by its later line", () =>
    withWorkspace(
      Effect.gen(function* () {
        const path = file("items.csv", [
          csvHeader,
          line("A", "1.00"),
          line("B", "2.00"),
          line("A", "3.00"),
          line("C", "4.00")
        ])
        const summary = yield* importCatalogFile(workspaceId, path, "csv", {
          batchSize: 3,
          writers: 1,
          maxReported: 10
        })
        assert.deepStrictEqual(summary, { imported: 3, updated: 1, rejected: [], rejectedTotal: 0 })
        const catalog = yield* CatalogRepository
        const page = yield* catalog.list(workspaceId, { tag: null }, { limit: 10, cursor: null })
        assert.deepStrictEqual(page.items.map((item) => [item.sku, item.price]).sort(), [
          ["A", 300],
          ["B", 200],
          ["C", 400]
        ])
      })
    )
  )

  it.effect("several writers: every sku ends with its last line's values, rejections in file order", () =>
    withWorkspace(
      Effect.gen(function* () {
        // 40 skus, each on 5 lines spread over the file (the price grows with the line); every 9th line is bad.
        const lines = Array.from({ length: 200 }, (_, n) =>
          n % 9 === 4 ? line(`S${n % 40}`, "bad") : line(`S${(n * 7) % 40}`, `${n + 1}.00`)
        )
        const path = file("items.csv", [csvHeader, ...lines])
        const summary = yield* importCatalogFile(workspaceId, path, "csv", { batchSize: 6, writers: 3, maxReported: 4 })
        const expected = new Map<string, number>()
        for (let n = 0; n < lines.length; n++) if (n % 9 !== 4) expected.set(`S${(n * 7) % 40}`, (n + 1) * 100)
        const rejectedLines = lines.flatMap((_, n) => (n % 9 === 4 ? [n + 2] : []))
        assert.deepStrictEqual(
          [summary.imported, summary.rejectedTotal, summary.rejected.map((rejected) => rejected.line)],
          [expected.size, rejectedLines.length, rejectedLines.slice(0, 4)]
        )
        assert.strictEqual(summary.updated, 200 - rejectedLines.length - expected.size)
        const catalog = yield* CatalogRepository
        const page = yield* catalog.list(workspaceId, { tag: null }, { limit: 100, cursor: null })
        assert.deepStrictEqual(new Map(page.items.map((item) => [item.sku, item.price])), expected)
      })
    )
  )

  it.effect("reports the first rejected lines and counts them all, so memory stays bounded", () =>
    withWorkspace(
      Effect.gen(function* () {
        const bad = Array.from({ length: 25 }, (_, n) => line(`X${n}`, "oops"))
        const path = file("items.csv", [csvHeader, line("A", "1.00"), ...bad, line("B", "2.00")])
        const summary = yield* importCatalogFile(workspaceId, path, "csv", { batchSize: 4, writers: 2, maxReported: 5 })
        assert.deepStrictEqual([summary.imported, summary.updated, summary.rejectedTotal], [2, 0, 25])
        assert.deepStrictEqual(
          summary.rejected.map((rejected) => rejected.line),
          [3, 4, 5, 6, 7]
        )
      })
    )
  )

  it.effect("fails the whole import on an unusable header or file", () =>
    withWorkspace(
      Effect.gen(function* () {
        const header = yield* Effect.flip(importCatalogFile(workspaceId, file("a.csv", ["sku,title"]), "csv"))
        assert.match(header.message, /line 1: header: missing columns currency, price/)
        const empty = yield* Effect.flip(importCatalogFile(workspaceId, file("b.csv", []), "csv"))
        assert.match(empty.message, /is empty/)
        const missing = yield* Effect.flip(importCatalogFile(workspaceId, "/nonexistent/items.csv", "csv"))
        assert.match(missing.message, /cannot read \/nonexistent\/items.csv/)
      })
    )
  )
})
