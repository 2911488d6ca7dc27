import { Catalog } from "@margin/core/CatalogService"
import { Tag } from "@margin/core/Tag"
import { readAccess } from "@margin/edge/auth"
import { CatalogItemJson, catalogItemJson, ListJson, listJson, pageRequest } from "@margin/edge/wire"
import { Effect, Schema } from "effect"
import { Toolkit } from "effect/ai"
import { marginTool, reads, toolHandlers } from "./MarginTool.ts"
import { pageParams } from "./PageParams.ts"

export const ListCatalogItems = marginTool("list_catalog_items", {
  title: "List catalog items",
  description:
    "Catalog items with price, cost, floor and ceiling (money in integer minor units), newest first, optionally one tag. Answers one page: pass its next_cursor as cursor for the next.",
  access: readAccess("catalog:read"),
  hints: reads,
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
