import { Catalog } from "@margin/core/CatalogService"
import { Caller } from "@margin/edge/auth"
import { catalogItemJson, listJson, pageRequest } from "@margin/edge/wire"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, apiMiddlewares } from "./Api.ts"
import { isolatedGroup } from "./IsolatedGroup.ts"

export const CatalogHandlers = isolatedGroup(
  Effect.gen(function* () {
    const catalog = yield* Catalog
    return HttpApiBuilder.group(Api, "catalog", (handlers) =>
      handlers.handleAll({
        listCatalogItems: ({ query }) =>
          Caller.use((caller) => catalog.list(caller.workspaceId, { tag: query.tag ?? null }, pageRequest(query))).pipe(
            Effect.map((page) => listJson(page, catalogItemJson))
          )
      })
    )
  }),
  ...apiMiddlewares
)
