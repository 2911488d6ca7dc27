import { Effect } from "effect"
import { CatalogItemId } from "../kernel/Ids.ts"
import type { ImportDecision } from "./CatalogImportDecision.ts"
import type { CatalogItem } from "./CatalogItem.ts"
import type { CatalogPatch, CatalogPatchLine } from "./CatalogPatch.ts"

/**
 * One batch of import lines decided in file order, as every adapter of `CatalogRepository.applyImport`
 * does it: each line against the item as the lines before it left it (`items`, by sku, read by the
 * adapter), a created item given the id `nextId` answers. Answers each line's decision and the items
 * to write (created or changed), one per sku.
 */
export const decideBatch = Effect.fnUntraced(function* <E>(
  lines: ReadonlyArray<CatalogPatchLine>,
  current: ReadonlyArray<CatalogItem>,
  decide: (current: CatalogItem | undefined, patch: CatalogPatch) => ImportDecision,
  nextId: Effect.Effect<string, E>
) {
  const items = new Map(current.map((item) => [item.sku, item]))
  const written = new Map<string, CatalogItem>()
  const decisions: Array<ImportDecision> = []
  for (const { patch } of lines) {
    const decision = decide(items.get(patch.sku), patch)
    decisions.push(decision)
    const item =
      decision._tag === "Created"
        ? { ...decision.item, id: CatalogItemId.make(yield* nextId) }
        : decision._tag === "Updated"
          ? decision.item
          : undefined
    if (item !== undefined) {
      items.set(item.sku, item)
      written.set(item.sku, item)
    }
  }
  return { decisions, written: Array.from(written.values()) }
})
