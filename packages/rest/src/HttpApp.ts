import { importCatalog } from "@margin/core/operations/OperationCatalogue"
import { MetricsRoute, pathOf } from "@margin/edge/telemetry"
import { deprecationsInUse } from "@margin/edge/wire"
import { Effect, Layer } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { AlertsHandlers } from "./AlertsHandlers.ts"
import { Api, catalogImportMaxBytes, openApiPath } from "./Api.ts"
import * as AuthenticationLayer from "./AuthenticationLayer.ts"
import { CatalogHandlers } from "./CatalogHandlers.ts"
import * as Deprecations from "./Deprecations.ts"
import { RecommendationsHandlers } from "./RecommendationsHandlers.ts"
import { ReportsHandlers } from "./ReportsHandlers.ts"
import * as RequestValidationLayer from "./RequestValidationLayer.ts"
import * as ResponseGuard from "./ResponseGuard.ts"
import { type RouteTable, routeTable } from "./RouteTable.ts"
import { RunsHandlers } from "./RunsHandlers.ts"
import { SystemHandlers } from "./SystemHandlers.ts"
import { WorkspaceHandlers } from "./WorkspaceHandlers.ts"

/** A route of the router, by method and declared path. */
export interface Route {
  readonly method: string
  readonly path: string
}

/**
 * Routes served beside the REST API on the same router, and the routes they declare. The MCP front
 * door is mounted so by the process's wiring (@margin/runtime), which keeps REST and MCP apart here.
 */
export interface Beside<E, R> {
  readonly layer: Layer.Layer<never, E, R>
  readonly routes: ReadonlyArray<Route>
}

export interface HttpAppOptions<E, R> {
  /** Request bodies above this are refused with 413 (default 1 MiB). */
  readonly maxBodyBytes?: number
  readonly beside?: Beside<E, R>
}

export const defaultMaxBodyBytes = 1024 * 1024

/**
 * Every route the app serves, with `beside`'s: 404 vs 405, and the route templates of metrics and
 * trace spans.
 */
export const routesWith = (beside: ReadonlyArray<Route>): RouteTable =>
  routeTable(Api, [{ method: "GET", path: openApiPath }, { method: "GET", path: MetricsRoute.metricsPath }, ...beside])

/** A request's server span name: method and route template (`GET /api/v1/runs/:run_id`), never a raw path. */
export const spanNameOf =
  (routes: RouteTable) =>
  (request: HttpServerRequest.HttpServerRequest): string =>
    `${request.method} ${routes.templateOf(pathOf(request.url)) ?? "unmatched"}`

/**
 * The REST front door as router routes: the HttpApi (with its OpenAPI document at
 * /api/v1/openapi.json), its middlewares and the response guard; the routes `beside` it on the same
 * router (the MCP front door at /mcp, so that one process serves both on one rate budget); GET
 * /metrics (Prometheus text, METRICS_TOKEN). Requires the use cases (the use-case layer of
 * @margin/runtime), `BackgroundRuns`, `Readiness`, the ports and the HTTP platform; serve it with
 * `serveLean(HttpApp.layer(), [WriteBackOutbox])` (@margin/edge/serving). The deprecations of
 * DeprecatedOperations (@margin/edge/wire) mark the OpenAPI document and add their response
 * headers (Deprecations.ts), to `beside`'s answers too; an invalid one fails the layer, so the
 * server does not start.
 */
export const layer = <E = never, R = never>(options: HttpAppOptions<E, R> = {}) => {
  const routes = routesWith(options.beside?.routes ?? [])
  return Layer.unwrap(
    Effect.map(
      Effect.flatMap(deprecationsInUse, (deprecations) => Deprecations.resolve(Api, deprecations)),
      (deprecated) =>
        Layer.mergeAll(
          HttpApiBuilder.layer(Deprecations.documented(Api, deprecated), { openapiPath: openApiPath }).pipe(
            Layer.provide([
              RunsHandlers,
              RecommendationsHandlers,
              AlertsHandlers,
              CatalogHandlers,
              ReportsHandlers,
              WorkspaceHandlers,
              SystemHandlers
            ]),
            Layer.provide([AuthenticationLayer.layer, RequestValidationLayer.layer])
          ),
          options.beside?.layer ?? Layer.empty,
          MetricsRoute.layer,
          ResponseGuard.layer({
            maxBodyBytes: options.maxBodyBytes ?? defaultMaxBodyBytes,
            largeBodyRoutes: new Map([[importCatalog.rest.path, catalogImportMaxBytes]]),
            routes
          })
        ).pipe(
          // Built first, so its middleware runs outermost: the guard's rewritten answers get the headers too.
          Layer.provide(Deprecations.headersLayer(deprecated, routes))
        )
    )
  )
}
