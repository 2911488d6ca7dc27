import * as DeprecatedOperations from "@margin/edge/DeprecatedOperations"
import * as MetricsRoute from "@margin/edge/MetricsRoute"
import { pathOf } from "@margin/edge/RequestPath"
import * as WorkerBackgroundRuns from "@margin/jobs/WorkerBackgroundRuns"
import * as McpRoutes from "@margin/mcp-server/McpRoutes"
import { McpSettings, type McpSettingsShape } from "@margin/mcp-server/McpSettings"
import { mcpPath, metadataPath } from "@margin/mcp-server/ProtectedResource"
import { Effect, Layer } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { AlertsHandlers } from "./AlertsHandlers.ts"
import { Api, openApiPath } from "./Api.ts"
import * as Authentication from "./Authentication.ts"
import { CatalogHandlers } from "./CatalogHandlers.ts"
import * as Deprecations from "./Deprecations.ts"
import { RecommendationsHandlers } from "./RecommendationsHandlers.ts"
import { ReportsHandlers } from "./ReportsHandlers.ts"
import * as RequestValidation from "./RequestValidation.ts"
import * as ResponseGuard from "./ResponseGuard.ts"
import { routeTable } from "./RouteTable.ts"
import { RunsHandlers } from "./RunsHandlers.ts"
import { SystemHandlers } from "./SystemHandlers.ts"
import { WorkspaceHandlers } from "./WorkspaceHandlers.ts"

export interface HttpAppOptions {
  /** Request bodies above this are refused with 413 (default 1 MiB). */
  readonly maxBodyBytes?: number
  /** The MCP front door's settings, when the process has read them already; else from the environment. */
  readonly mcpSettings?: McpSettingsShape
}

export const defaultMaxBodyBytes = 1024 * 1024

/** Every route the app serves: 404 vs 405, and the route templates of metrics and trace spans. */
const routes = routeTable(Api, [
  { method: "GET", path: openApiPath },
  { method: "GET", path: MetricsRoute.metricsPath },
  ...["POST", "GET", "DELETE"].map((method) => ({ method, path: mcpPath })),
  { method: "GET", path: `${metadataPath}${mcpPath}` },
  { method: "GET", path: metadataPath }
])

/** A request's server span name: method and route template (`GET /api/v1/runs/:run_id`), never a raw path. */
export const spanName = (request: HttpServerRequest.HttpServerRequest): string =>
  `${request.method} ${routes.templateOf(pathOf(request.url)) ?? "unmatched"}`

/**
 * The REST front door as router routes: the HttpApi (with its OpenAPI document at
 * /api/v1/openapi.json), its middlewares and the response guard; and the MCP front door at /mcp
 * (@margin/mcp-server, settings from MCP_ALLOWED_ORIGINS / MCP_PUBLIC_URL) on the same router, so
 * that one process serves both on one rate budget; GET /metrics (Prometheus text, METRICS_TOKEN). Requires the use cases (`UseCasesLayer` of
 * @margin/edge), `Readiness`, the ports and the HTTP platform; serve it with
 * `serveLean(HttpApp.layer(), [WriteBackOutbox])` (@margin/edge/ServeLean). The deprecations of
 * @margin/edge/DeprecatedOperations mark the OpenAPI document and add their response headers
 * (Deprecations.ts); an invalid one fails the layer, so the server does not start.
 */
export const layer = (options: HttpAppOptions = {}) =>
  Layer.unwrap(
    Effect.map(
      Effect.flatMap(DeprecatedOperations.load, (deprecations) => Deprecations.resolve(Api, deprecations)),
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
            Layer.provide([Authentication.layer, RequestValidation.layer, WorkerBackgroundRuns.layer])
          ),
          McpRoutes.layer.pipe(
            Layer.provide([
              WorkerBackgroundRuns.layer,
              options.mcpSettings === undefined ? McpSettings.layerConfig : McpSettings.layerWith(options.mcpSettings)
            ])
          ),
          MetricsRoute.layer,
          ResponseGuard.layer({
            maxBodyBytes: options.maxBodyBytes ?? defaultMaxBodyBytes,
            routes
          })
        ).pipe(
          // Built first, so its middleware runs outermost: the guard's rewritten answers get the headers too.
          Layer.provide(Deprecations.headersLayer(deprecated, routes))
        )
    )
  )
