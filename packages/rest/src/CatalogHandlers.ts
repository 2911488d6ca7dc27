import { CatalogImports } from "@margin/core/CatalogImportService"
import { Catalog } from "@margin/core/CatalogService"
import { Caller, callerActor } from "@margin/edge/auth"
import { catalogImportJson, catalogItemJson, listJson, pageRequest } from "@margin/edge/wire"
import { Effect, Stream } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, apiMiddlewares } from "./Api.ts"
import { isolatedGroup } from "./IsolatedGroup.ts"

/** The file's format by the body's media type: CSV for text/csv, JSON lines for the others the endpoint takes. */
const formatOf = (contentType: string | undefined) =>
  (contentType ?? "").split(";")[0]?.trim().toLowerCase() === "text/csv" ? ("csv" as const) : ("jsonl" as const)

export const CatalogHandlers = isolatedGroup(
  Effect.gen(function* () {
    const catalog = yield* Catalog
    const imports = yield* CatalogImports
    return HttpApiBuilder.group(Api, "catalog", (handlers) =>
      handlers.handleAll({
        listCatalogItems: ({ query }) =>
          Caller.use((caller) => catalog.list(caller.workspaceId, { tag: query.tag ?? null }, pageRequest(query))).pipe(
            Effect.map((page) => listJson(page, catalogItemJson))
          ),
        // The body is read as it arrives, line by line, inside the transaction of the import. A body
        // over the limit fails the stream with HttpApiPayloadTooLarge, which answers 413 itself.
        importCatalog: ({ payload, query, request }) =>
          Caller.use((caller) =>
            imports.run({
              workspaceId: caller.workspaceId,
              format: formatOf(request.headers["content-type"]),
              lines: payload.pipe(Stream.decodeText(), Stream.splitLines, Stream.orDie),
              dryRun: query.dry_run === "true",
              actor: callerActor(caller)
            })
          ).pipe(Effect.map(catalogImportJson)),
        getCatalogImport: ({ params }) =>
          Caller.use((caller) => imports.get(caller.workspaceId, params.import_id)).pipe(Effect.map(catalogImportJson))
      })
    )
  }),
  ...apiMiddlewares
)
