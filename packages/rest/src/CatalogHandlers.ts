import { CatalogImports } from "@margin/core/catalog/CatalogImports"
import {
  getCatalogImport,
  getStoreSync,
  listCatalogItems,
  startStoreSync
} from "@margin/core/operations/OperationCatalogue"
import { Caller, callerActor } from "@margin/edge/auth"
import { catalogImportJson, catalogItemJson, listJson, storeSyncJson } from "@margin/edge/wire"
import { Effect, Stream } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, apiMiddlewares } from "./Api.ts"
import { isolatedGroup } from "./IsolatedGroup.ts"
import { answer } from "./OperationEndpoint.ts"

/** The file's format by the body's media type: CSV for text/csv, JSON lines for the others the endpoint takes. */
const formatOf = (contentType: string | undefined) =>
  (contentType ?? "").split(";")[0]?.trim().toLowerCase() === "text/csv" ? ("csv" as const) : ("jsonl" as const)

export const CatalogHandlers = isolatedGroup(
  Effect.gen(function* () {
    const list = answer(yield* listCatalogItems.binding, (page) => listJson(page, catalogItemJson))
    const getImport = answer(yield* getCatalogImport.binding, catalogImportJson)
    const startSync = answer(yield* startStoreSync.binding, storeSyncJson)
    const getSync = answer(yield* getStoreSync.binding, storeSyncJson)
    // importCatalog streams its file: the body goes to the use case as it arrives (its entry's
    // binding is the MCP form, whose file is one argument).
    const imports = yield* CatalogImports
    return HttpApiBuilder.group(Api, "catalog", (handlers) =>
      handlers.handleAll({
        listCatalogItems: ({ query }) => list(query),
        // Read line by line inside the import's transaction. A body over the limit fails the
        // stream with HttpApiPayloadTooLarge, which answers 413 itself.
        importCatalog: ({ payload, query, request }) =>
          Caller.use((caller) =>
            imports.run({
              workspaceId: caller.workspaceId,
              format: formatOf(request.headers["content-type"]),
              lines: payload.pipe(Stream.decodeText(), Stream.splitLines, Stream.orDie),
              dryRun: query.dry_run ?? false,
              actor: callerActor(caller)
            })
          ).pipe(Effect.map(catalogImportJson)),
        getCatalogImport: ({ params }) => getImport(params),
        startStoreSync: () => startSync({}),
        getStoreSync: ({ params }) => getSync(params)
      })
    )
  }),
  ...apiMiddlewares
)
