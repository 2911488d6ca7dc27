import { listCatalogItems } from "@margin/core/operations/OperationCatalogue"
import { CatalogItemJson, catalogItemJson, ListJson, listJson } from "@margin/edge/wire"
import { Effect } from "effect"
import { Toolkit } from "effect/ai"
import { marginTool, toolHandlers, toolParameters } from "./MarginTool.ts"

export const ListCatalogItems = marginTool(listCatalogItems, {
  parameters: toolParameters(listCatalogItems),
  success: ListJson(CatalogItemJson, "CatalogItemList")
})

export const CatalogTools = Toolkit.make(ListCatalogItems)

export const CatalogToolsLayer = CatalogTools.toLayer(
  Effect.gen(function* () {
    const handle = yield* toolHandlers
    return CatalogTools.of({
      list_catalog_items: handle(ListCatalogItems, yield* listCatalogItems.binding, (page) =>
        listJson(page, catalogItemJson)
      )
    })
  })
)
