import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { csvHeader } from "@margin/core/catalog/CatalogImport"
import { CatalogImports } from "@margin/core/catalog/CatalogImports"
import { CatalogRepository } from "@margin/core/catalog/CatalogRepository"
import { WorkspaceId } from "@margin/core/kernel/Ids"
import * as MemoryAdapters from "@margin/core/memory/MemoryAdapters"
import { aWorkspace } from "@margin/core/testing/Fixtures"
import { WorkspaceRepository } from "@margin/core/workspaces/WorkspaceRepository"
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
    Effect.provide(
      CatalogImports.layerWith({ batchSize: 3 }).pipe(
        Layer.provideMerge(Layer.mergeAll(MemoryAdapters.layer, NodeServices.layer))
      )
    )
  )

const prices = Effect.flatMap(CatalogRepository, (catalog) =>
  catalog.list(workspaceId, { tag: null }, { limit: 10, cursor: null })
).pipe(Effect.map((page) => page.items.map((item) => [item.sku, item.price]).sort()))

describe("importCatalogFile", () => {
  it.effect("streams the file's lines through the import; a sku repeated in the file ends with its later line", () =>
    withWorkspace(
      Effect.gen(function* () {
        const path = file("items.csv", [
          csvHeader,
          line("A", "1.00"),
          line("B", "2.00"),
          line("A", "3.00"),
          line("C", "4.00")
        ])
        const { summary, dryRun } = yield* importCatalogFile(workspaceId, path, "csv")
        assert.isFalse(dryRun)
        assert.deepStrictEqual([summary.created, summary.updated, summary.priceChanged], [3, 1, 1])
        assert.deepStrictEqual(yield* prices, [
          ["A", 300],
          ["B", 200],
          ["C", 400]
        ])
      })
    )
  )

  it.effect("a dry run reads the whole file and writes nothing", () =>
    withWorkspace(
      Effect.gen(function* () {
        const path = file("items.jsonl", [JSON.stringify({ sku: "J", title: "Jug", currency: "USD", price: 5 })])
        const { summary, dryRun } = yield* importCatalogFile(workspaceId, path, "jsonl", true)
        assert.deepStrictEqual([dryRun, summary.created], [true, 1])
        assert.deepStrictEqual(yield* prices, [])
      })
    )
  )

  it.effect("fails the whole import on an unusable header or file, naming the file", () =>
    withWorkspace(
      Effect.gen(function* () {
        const badHeader = file("a.csv", ["title,price"])
        const header = yield* Effect.flip(importCatalogFile(workspaceId, badHeader, "csv"))
        assert.strictEqual(header.message, `${badHeader}: line 1: header: missing column sku`)
        const empty = yield* Effect.flip(importCatalogFile(workspaceId, file("b.csv", []), "csv"))
        assert.match(empty.message, /b\.csv: the file is empty/)
        const missing = yield* Effect.flip(importCatalogFile(workspaceId, "/nonexistent/items.csv", "csv"))
        assert.match(missing.message, /cannot read \/nonexistent\/items.csv/)
      })
    )
  )
})
