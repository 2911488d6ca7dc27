import { Context, type Effect, type Option, type Stream } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { CatalogItemId, WorkspaceId } from "../kernel/Ids.ts"
import type { Page, PageRequest } from "../kernel/Page.ts"
import type { ImportDecision } from "./CatalogImportDecision.ts"
import type { CatalogItem, CatalogItemInput } from "./CatalogItem.ts"
import type { CatalogPatch, CatalogPatchLine } from "./CatalogPatch.ts"
import type { Tag } from "./Tag.ts"

export interface CatalogFilter {
  readonly tag: Tag | null
  /** Only the items whose SKU contains this text, case-insensitively (empty or absent: all). */
  readonly sku?: string | null
}

/** The SKU search's rule, for every adapter: a part of the SKU, case-insensitive. */
export const skuMatches = (sku: string, search: string | null | undefined): boolean =>
  search == null || search === "" || sku.toLowerCase().includes(search.toLowerCase())

/** What a run reads of an item: the engine's inputs only, so that a catalog-scale read stays light. */
export type RunItem = Pick<
  CatalogItem,
  | "id"
  | "sku"
  | "currency"
  | "price"
  | "cost"
  | "minPrice"
  | "maxPrice"
  | "unitsSold30d"
  | "analysedCost"
  | "priceHistory"
  | "tags"
  | "competitorPrice"
>

/** What pooling the elasticities reads of an item with a price history (see ElasticityPools). */
export type EvidenceItem = Pick<CatalogItem, "tags" | "price" | "unitsSold30d" | "priceHistory" | "competitorPrice">

export interface UpsertSummary {
  readonly inserted: number
  readonly updated: number
}

export class CatalogRepository extends Context.Service<
  CatalogRepository,
  {
    readonly get: (
      workspaceId: WorkspaceId,
      id: CatalogItemId
    ) => Effect.Effect<Option.Option<CatalogItem>, RepositoryError>
    readonly list: (
      workspaceId: WorkspaceId,
      filter: CatalogFilter,
      page: PageRequest
    ) => Effect.Effect<Page<CatalogItem>, RepositoryError>
    readonly count: (workspaceId: WorkspaceId) => Effect.Effect<number, RepositoryError>
    /**
     * Inserts new skus and updates existing ones (by workspace + sku), in one batch. A new item's
     * analysed cost starts at the cost it arrives with: the import is the first time its cost is
     * seen, so a run only has to store the snapshots of costs that moved (see markAnalysed).
     */
    readonly upsertMany: (
      workspaceId: WorkspaceId,
      items: ReadonlyArray<CatalogItemInput>,
      now: number
    ) => Effect.Effect<UpsertSummary, RepositoryError>
    /**
     * Applies import lines in file order, in one transaction (joining the caller's, so that a whole
     * import is one): reads the items of the lines' skus (locked against other writers), lets
     * `decide` say what each line does to the item as the lines before it left it, and writes the
     * items that were created or changed, nothing else. Answers each line's decision, in order. A
     * created item gets its id here.
     */
    readonly applyImport: (
      workspaceId: WorkspaceId,
      lines: ReadonlyArray<CatalogPatchLine>,
      decide: (current: CatalogItem | undefined, patch: CatalogPatch) => ImportDecision
    ) => Effect.Effect<ReadonlyArray<ImportDecision>, RepositoryError>
    /**
     * The items a run covers, in chunks ordered by id: all of them when `tags` is empty,
     * otherwise those carrying any of `tags`. Memory stays bounded by `chunkSize`.
     */
    readonly streamForRun: (
      workspaceId: WorkspaceId,
      tags: ReadonlyArray<Tag>,
      chunkSize: number
    ) => Stream.Stream<ReadonlyArray<CatalogItem>, RepositoryError>
    /** The same items as streamForRun, as the run reads them: only what the pricing engine needs. */
    readonly streamRunItems: (
      workspaceId: WorkspaceId,
      tags: ReadonlyArray<Tag>,
      chunkSize: number
    ) => Stream.Stream<ReadonlyArray<RunItem>, RepositoryError>
    /**
     * Every item of the workspace that has a price history, in chunks ordered by id: the evidence a
     * run pools elasticities from before it prices anything. Items without history are not read.
     */
    readonly streamElasticityEvidence: (
      workspaceId: WorkspaceId,
      chunkSize: number
    ) => Stream.Stream<ReadonlyArray<EvidenceItem>, RepositoryError>
    readonly countForRun: (workspaceId: WorkspaceId, tags: ReadonlyArray<Tag>) => Effect.Effect<number, RepositoryError>
    /**
     * After a run has analysed items: remember each one's cost as the snapshot the next run compares
     * against. Runs pass only the items whose cost differs from their snapshot.
     */
    readonly markAnalysed: (
      workspaceId: WorkspaceId,
      snapshot: ReadonlyArray<{ readonly id: CatalogItemId; readonly cost: number | null }>
    ) => Effect.Effect<void, RepositoryError>
    /**
     * After an applied write-back the catalog price follows the store. A price that changes becomes
     * the item's from `now` (`priceSetAt`), and the item remembers the price it replaced
     * (`writtenBackFrom`), so that an import of an older file does not put it back.
     */
    readonly setPrice: (
      workspaceId: WorkspaceId,
      id: CatalogItemId,
      price: number,
      now: number
    ) => Effect.Effect<void, RepositoryError>
  }
>()("margin/core/CatalogRepository") {}
