import { Context, Effect, Layer } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import type { Page, PageRequest } from "../kernel/Page.ts"
import type { CatalogItem } from "./CatalogItem.ts"
import { type CatalogFilter, CatalogRepository } from "./CatalogRepository.ts"

/** The catalog as callers browse it: newest first, optionally one tag. */
export class Catalog extends Context.Service<
  Catalog,
  {
    readonly list: (
      workspaceId: WorkspaceId,
      filter: CatalogFilter,
      page: PageRequest
    ) => Effect.Effect<Page<CatalogItem>, RepositoryError>
  }
>()("margin/core/Catalog") {
  static readonly layer = Layer.effect(
    Catalog,
    Effect.gen(function* () {
      const catalog = yield* CatalogRepository
      return Catalog.of({
        list: Effect.fn("Catalog.list")(function* (workspaceId, filter, page) {
          return yield* catalog.list(workspaceId, filter, page)
        })
      })
    })
  )
}
