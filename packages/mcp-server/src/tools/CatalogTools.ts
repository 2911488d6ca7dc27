import {
  getCatalogImport,
  getStoreSync,
  importCatalog,
  listCatalogItems,
  startStoreSync
} from "@margin/core/operations/OperationCatalogue"
import {
  CatalogImportJson,
  CatalogItemJson,
  catalogImportJson,
  catalogItemJson,
  ListJson,
  listJson,
  StoreSyncJson,
  storeSyncJson
} from "@margin/edge/wire"
import { Effect, Schema } from "effect"
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

export const SyncStore = marginTool(startStoreSync, {
  // No input (as get_workspace_status): unknown fields are ignored, as for every tool.
  parameters: Schema.Record(Schema.String, Schema.Unknown),
  success: StoreSyncJson
})

export const GetStoreSync = marginTool(getStoreSync, {
  parameters: toolParameters(getStoreSync),
  success: StoreSyncJson
})

export const CatalogTools = Toolkit.make(ListCatalogItems, ImportCatalog, GetCatalogImport, SyncStore, GetStoreSync)

export const CatalogToolsLayer = CatalogTools.toLayer(
  Effect.gen(function* () {
    const handle = yield* toolHandlers
    return CatalogTools.of({
      list_catalog_items: handle(ListCatalogItems, yield* listCatalogItems.binding, (page) =>
        listJson(page, catalogItemJson)
      ),
      import_catalog: handle(ImportCatalog, yield* importCatalog.binding, catalogImportJson),
      get_catalog_import: handle(GetCatalogImport, yield* getCatalogImport.binding, catalogImportJson),
      sync_store: handle(SyncStore, yield* startStoreSync.binding, storeSyncJson),
      get_store_sync: handle(GetStoreSync, yield* getStoreSync.binding, storeSyncJson)
    })
  })
)
