import { Catalog } from "@margin/core/CatalogService"
import { listCatalogItems } from "@margin/core/operations/OperationCatalogue"
import { Tag } from "@margin/core/Tag"
import { CatalogItemJson, catalogItemJson, ListJson, listJson, pageRequest } from "@margin/edge/wire"
import { Effect, Schema } from "effect"
import { Toolkit } from "effect/ai"
import { marginTool, toolHandlers } from "./MarginTool.ts"
import { pageParams } from "./PageParams.ts"

export const ListCatalogItems = marginTool(listCatalogItems, {
  parameters: Schema.Struct({ ...pageParams, tag: Schema.optionalKey(Tag) }),
  success: ListJson(CatalogItemJson, "CatalogItemList")
})

export const CatalogTools = Toolkit.make(ListCatalogItems)

export const CatalogToolsLayer = CatalogTools.toLayer(
  Effect.gen(function* () {
    const catalog = yield* Catalog
    const handle = yield* toolHandlers
    return CatalogTools.of({
      list_catalog_items: handle(ListCatalogItems, (params, caller) =>
        Effect.map(catalog.list(caller.workspaceId, { tag: params.tag ?? null }, pageRequest(params)), (page) =>
          listJson(page, catalogItemJson)
        )
      )
    })
  })
)
