import { Catalog } from "@margin/core/CatalogService"
import { Caller } from "@margin/edge/Caller"
import { catalogItemJson } from "@margin/edge/CatalogItemJson"
import { listJson, pageRequest } from "@margin/edge/ListJson"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "./Api.ts"
import { Authentication } from "./Authentication.ts"
import { isolatedGroup } from "./IsolatedGroup.ts"
import { RequestValidation } from "./RequestValidation.ts"

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
  RequestValidation,
  Authentication
)
