import { ItemOverviews } from "@margin/core/catalog/ItemOverviews"
import type { RepositoryError } from "@margin/core/kernel/Errors"
import { CatalogItemId } from "@margin/core/kernel/Ids"
import { listCatalogItems } from "@margin/core/operations/OperationCatalogue"
import { inputSchemaOf } from "@margin/core/operations/OperationInput"
import { Effect, Result } from "effect"
import { HttpRouter } from "effect/http"
import { catalogPage } from "./CatalogPage.ts"
import { decodeForm, sessionCaller } from "./CatalogueCall.ts"
import { type ConsoleHandler, type ConsoleKit, queryOf } from "./ConsoleKit.ts"
import { itemPage } from "./ItemPage.ts"

export const catalogPaths = {
  catalog: "/app/w/:workspace_id/catalog",
  item: "/app/w/:workspace_id/catalog/:item_id"
} as const

/** The routes these handlers serve, for the console's route table. */
export const catalogRoutesTable = [
  { method: "GET", path: catalogPaths.catalog },
  { method: "GET", path: catalogPaths.item }
] as const

const listInput = inputSchemaOf(listCatalogItems, "query")

/** A form's fields that carry a value (an empty field is an unused filter, not a value). */
export const filledIn = (fields: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value.trim() !== ""))

/**
 * The catalog searched by SKU and tag (`listCatalogItems` through the catalogue: its query rules
 * and its binding, as REST's) and one item's page (`ItemOverviews`). Every role may read them.
 */
export const catalogRoutes = <E>(kit: ConsoleKit<E>) =>
  Effect.gen(function* () {
    const list = yield* listCatalogItems.binding
    const overviews = yield* ItemOverviews

    const showCatalog: ConsoleHandler<E | RepositoryError> = (request) =>
      Effect.gen(function* () {
        const place = yield* kit.inWorkspace(request, "catalog")
        if (place._tag === "Answer") return place.response
        const query = queryOf(request)
        const search = { sku: (query.get("sku") ?? "").slice(0, 200), tag: (query.get("tag") ?? "").slice(0, 100) }
        const cursor = query.get("cursor") ?? ""
        const input = decodeForm(listInput, filledIn({ ...search, cursor }))
        const page = Result.isSuccess(input) ? yield* list(input.success, sessionCaller(place)) : null
        const here = `/app/w/${encodeURIComponent(place.workspaceId)}/catalog`
        const next =
          page !== null && page.nextCursor !== null
            ? `${here}?${new URLSearchParams({ ...search, cursor: page.nextCursor })}`
            : null
        return kit.withCookies(
          catalogPage({
            context: place.context,
            workspaceId: place.workspaceId,
            search,
            items: page === null ? [] : page.items,
            next,
            error: Result.isFailure(input) ? input.failure : null
          }),
          place.cookies
        )
      })

    const showItem: ConsoleHandler<E | RepositoryError> = (request) =>
      Effect.gen(function* () {
        const place = yield* kit.inWorkspace(request, "catalog")
        if (place._tag === "Answer") return place.response
        const id = (yield* HttpRouter.params).item_id ?? ""
        if (!kit.isId(id)) return kit.notFound(place.context)
        // Not found (or another workspace's) is 404; a database failure stays one (503).
        const found = yield* overviews
          .get(place.workspaceId, CatalogItemId.make(id))
          .pipe(Effect.catchTag("ResourceNotFound", () => Effect.succeed(null)))
        if (found === null) return kit.notFound(place.context)
        return kit.withCookies(
          itemPage({ context: place.context, workspaceId: place.workspaceId, overview: found }),
          place.cookies
        )
      })

    return [
      ["GET", catalogPaths.catalog, showCatalog],
      ["GET", catalogPaths.item, showItem]
    ] as const
  })
