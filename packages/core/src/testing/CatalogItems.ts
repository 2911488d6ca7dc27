import { assert } from "@effect/vitest"
import { Effect, Stream } from "effect"
import type { CatalogItem } from "../catalog/CatalogItem.ts"
import { CatalogRepository } from "../catalog/CatalogRepository.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"

/** Every item of the workspace, by sku (suites that compare the catalog before and after). */
export const catalogBySku = (workspaceId: WorkspaceId) =>
  CatalogRepository.use((catalog) => Stream.runCollect(catalog.streamForRun(workspaceId, [], 1000))).pipe(
    Effect.map((chunks) => new Map(chunks.flat().map((item) => [item.sku, item])))
  )

/** The item of `sku`, failing the test when there is none. */
export const itemOf = (items: ReadonlyMap<string, CatalogItem>, sku: string): CatalogItem => {
  const item = items.get(sku)
  return item === undefined ? assert.fail(`no item ${sku}`) : item
}
