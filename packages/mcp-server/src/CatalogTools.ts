import { CatalogImportFormat } from "@margin/core/CatalogImportRecord"
import { CatalogImports } from "@margin/core/CatalogImportService"
import { Catalog } from "@margin/core/CatalogService"
import { CatalogImportId } from "@margin/core/Ids"
import { getCatalogImport, importCatalog, listCatalogItems } from "@margin/core/operations/OperationCatalogue"
import { Tag } from "@margin/core/Tag"
import { callerActor } from "@margin/edge/auth"
import {
  CatalogImportJson,
  CatalogItemJson,
  catalogImportJson,
  catalogItemJson,
  ListJson,
  listJson,
  pageRequest
} from "@margin/edge/wire"
import { Effect, Schema, Stream } from "effect"
import { Toolkit } from "effect/ai"
import { marginTool, toolHandlers } from "./MarginTool.ts"
import { pageParams } from "./PageParams.ts"

export const ListCatalogItems = marginTool(listCatalogItems, {
  parameters: Schema.Struct({ ...pageParams, tag: Schema.optionalKey(Tag) }),
  success: ListJson(CatalogItemJson, "CatalogItemList")
})

/** The lines an agent sends: the text of a file, at most 1 MiB of it per call (the request's own limit). */
export const ImportCatalog = marginTool(importCatalog, {
  parameters: Schema.Struct({
    format: CatalogImportFormat,
    content: Schema.String.pipe(Schema.check(Schema.isMaxLength(1024 * 1024))),
    dry_run: Schema.optionalKey(Schema.Boolean)
  }),
  success: CatalogImportJson
})

export const GetCatalogImport = marginTool(getCatalogImport, {
  parameters: Schema.Struct({ import_id: CatalogImportId }),
  success: CatalogImportJson
})

export const CatalogTools = Toolkit.make(ListCatalogItems, ImportCatalog, GetCatalogImport)

export const CatalogToolsLayer = CatalogTools.toLayer(
  Effect.gen(function* () {
    const catalog = yield* Catalog
    const imports = yield* CatalogImports
    const handle = yield* toolHandlers
    return CatalogTools.of({
      list_catalog_items: handle(ListCatalogItems, (params, caller) =>
        Effect.map(catalog.list(caller.workspaceId, { tag: params.tag ?? null }, pageRequest(params)), (page) =>
          listJson(page, catalogItemJson)
        )
      ),
      import_catalog: handle(ImportCatalog, (params, caller) =>
        imports
          .run({
            workspaceId: caller.workspaceId,
            format: params.format,
            lines: Stream.make(params.content).pipe(Stream.splitLines),
            dryRun: params.dry_run ?? false,
            actor: callerActor(caller)
          })
          .pipe(Effect.map(catalogImportJson))
      ),
      get_catalog_import: handle(GetCatalogImport, (params, caller) =>
        Effect.map(imports.get(caller.workspaceId, params.import_id), catalogImportJson)
      )
    })
  })
)
