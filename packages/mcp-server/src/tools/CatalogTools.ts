import { getCatalogImport, importCatalog, listCatalogItems } from "@margin/core/operations/OperationCatalogue"
import {
  CatalogImportJson,
  CatalogItemJson,
  catalogImportJson,
  catalogItemJson,
  ListJson,
  listJson
} from "@margin/edge/wire"
import { Effect } from "effect"
import { Toolkit } from "effect/ai"
import { marginTool, toolHandlers, toolParameters } from "./MarginTool.ts"

export const ListCatalogItems = marginTool(listCatalogItems, {
  parameters: toolParameters(listCatalogItems),
  success: ListJson(CatalogItemJson, "CatalogItemList")
})

export const ImportCatalog = marginTool(importCatalog, {
  parameters: toolParameters(importCatalog),
  success: CatalogImportJson
})

export const GetCatalogImport = marginTool(getCatalogImport, {
  parameters: toolParameters(getCatalogImport),
  success: CatalogImportJson
})

export const CatalogTools = Toolkit.make(ListCatalogItems, ImportCatalog, GetCatalogImport)

export const CatalogToolsLayer = CatalogTools.toLayer(
  Effect.gen(function* () {
    const handle = yield* toolHandlers
    return CatalogTools.of({
      list_catalog_items: handle(ListCatalogItems, yield* listCatalogItems.binding, (page) =>
        listJson(page, catalogItemJson)
      ),
      import_catalog: handle(ImportCatalog, yield* importCatalog.binding, catalogImportJson),
      get_catalog_import: handle(GetCatalogImport, yield* getCatalogImport.binding, catalogImportJson)
    })
  })
)
