import { listCatalogItems } from "@margin/core/operations/OperationCatalogue"
import { catalogItemJson, listJson } from "@margin/edge/wire"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, apiMiddlewares } from "./Api.ts"
import { isolatedGroup } from "./IsolatedGroup.ts"
import { answer } from "./OperationEndpoint.ts"

export const CatalogHandlers = isolatedGroup(
  Effect.gen(function* () {
    const list = answer(yield* listCatalogItems.binding, (page) => listJson(page, catalogItemJson))
    return HttpApiBuilder.group(Api, "catalog", (handlers) =>
      handlers.handleAll({ listCatalogItems: ({ query }) => list(query) })
    )
  }),
  ...apiMiddlewares
)
