import {
  acceptRecommendation,
  approveRecommendation,
  dismissAlert,
  dismissRecommendation,
  exportReport,
  getAlert,
  getCatalogImport,
  getRecommendation,
  getRun,
  getStoreSync,
  getWorkspaceStatus,
  healthz,
  importCatalog,
  listAlerts,
  listCatalogItems,
  listRecommendations,
  listRuns,
  operationGroups,
  readyz,
  rejectRecommendation,
  resolveAlert,
  snoozeAlert,
  startStoreSync,
  triggerRun,
  triggerRunHeaders,
  undoPriceChange
} from "@margin/core/operations/OperationCatalogue"
import {
  AlertChangedJson,
  AlertJson,
  CatalogImportJson,
  CatalogItemJson,
  IdempotentRepeatJson,
  ListJson,
  PriceChangeUndoneJson,
  RecommendationApprovedJson,
  RecommendationChangedJson,
  RecommendationDetailJson,
  RecommendationJson,
  ReportCsv,
  ReportJson,
  RunJson,
  StoreSyncJson,
  WorkspaceStatusJson
} from "@margin/edge/wire"
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  EmailNotConfirmedError,
  ForbiddenRoleError,
  InvalidInputError,
  NoCommerceIntegrationError,
  PlanLimitExceededError,
  RepositoryErrorError,
  ResourceNotFoundError,
  TierIneligibleError,
  TransitionConflictError
} from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { documentTransform } from "./DocumentTransform.ts"
import { operation } from "./Operation.ts"
import { RequestValidation } from "./RequestValidation.ts"
import { restQuery } from "./RestQuery.ts"
import { withSecuritySchemes } from "./SecuritySchemes.ts"
import { transportErrors } from "./TransportErrors.ts"

/**
 * The REST contract, v1: the ten operations of the contract plus the additive ones (docs/contract.md). The
 * OpenAPI document, the router and the request decoding all come from this one definition; each
 * endpoint's name, method, path, access, words and input (path and query parameters, the body)
 * come from its entry of the operation catalogue (`@margin/core/operations/OperationCatalogue`,
 * shared with the MCP tools; `restQuery`), its answers and errors from here.
 */

const prefix = "/api/v1"

const reportCsvExample = [
  "recommendation_id,run_id,item_id,sku,currency,current_price,current_price_minor,recommended_price,recommended_price_minor,current_margin,projected_margin,expected_monthly_impact,expected_monthly_impact_minor,rule,status,decided_by,decided_at,reject_reason,created_at,elasticity,elasticity_low,elasticity_high,elasticity_source",
  "rec_01m812xn02rynaz2v6w2yp0gw5,run_01m812xmykvmv6knr8c3ssh0cv,itm_01m812wcjvfrvqkszqwppg2xqa,DEMO-0196,USD,38.99,3899,41.99,4199,0.1685,0.2279,492.00,49200,step_limited,applied,token:tok_01m812wcr8ag73dapwgc29gyth,2026-11-22T07:36:03.931Z,,2026-11-22T07:35:53.088Z,-2.33,-2.60,-2.06,pooled",
  ""
].join("\r\n")

/**
 * The middlewares of every /api/v1 group (each group below lists them): what a handler group needs
 * when built on its own (IsolatedGroup).
 */
export const apiMiddlewares = [RequestValidation, Authentication] as const

/** A catalog import's body: its media type says its format (text/csv, else JSON lines). */
export const catalogImportContentTypes = ["text/csv", "application/x-ndjson", "application/jsonl"] as const

/** The largest catalog file one import takes (a million lines of a usual catalog is about 100 MiB). */
export const catalogImportMaxBytes = 512 * 1024 * 1024

export const RunsGroup = HttpApiGroup.make("runs")
  .annotateMerge(OpenApi.annotations({ description: operationGroups.runs }))
  .add(
    HttpApiEndpoint.make(listRuns.rest.method)(listRuns.id, listRuns.rest.path, {
      query: restQuery(listRuns),
      success: ListJson(RunJson, "RunList"),
      error: RepositoryErrorError
    }).annotateMerge(operation(listRuns)),
    HttpApiEndpoint.make(triggerRun.rest.method)(triggerRun.id, triggerRun.rest.path, {
      // REST carries the idempotency key as a header (the operation's `headers` input).
      headers: { "idempotency-key": triggerRunHeaders.fields.idempotency_key },
      // No body, or null, means {} (bodyMayBeAbsent).
      payload: [triggerRun.input.body, Schema.Null],
      success: RunJson.pipe(HttpApiSchema.status(202)),
      error: [
        EmailNotConfirmedError,
        PlanLimitExceededError,
        ResourceNotFoundError,
        InvalidInputError,
        RepositoryErrorError
      ]
    }).annotateMerge(operation(triggerRun)),
    HttpApiEndpoint.make(getRun.rest.method)(getRun.id, getRun.rest.path, {
      params: getRun.input.path,
      success: RunJson,
      error: [ResourceNotFoundError, RepositoryErrorError]
    }).annotateMerge(operation(getRun))
  )
  .middleware(RequestValidation)
  .middleware(Authentication)

/** What may refuse a command that writes a price to the store (approve, undo): role, plan, store, resource, state. */
const writeBackErrors = [
  ForbiddenRoleError,
  TierIneligibleError,
  NoCommerceIntegrationError,
  ResourceNotFoundError,
  TransitionConflictError,
  RepositoryErrorError
] as const

export const RecommendationsGroup = HttpApiGroup.make("recommendations")
  .annotateMerge(OpenApi.annotations({ description: operationGroups.recommendations }))
  .add(
    HttpApiEndpoint.make(listRecommendations.rest.method)(listRecommendations.id, listRecommendations.rest.path, {
      query: restQuery(listRecommendations),
      success: ListJson(RecommendationJson, "RecommendationList"),
      error: RepositoryErrorError
    }).annotateMerge(operation(listRecommendations)),
    HttpApiEndpoint.make(getRecommendation.rest.method)(getRecommendation.id, getRecommendation.rest.path, {
      params: getRecommendation.input.path,
      success: RecommendationDetailJson,
      error: [ResourceNotFoundError, RepositoryErrorError]
    }).annotateMerge(operation(getRecommendation)),
    HttpApiEndpoint.make(acceptRecommendation.rest.method)(acceptRecommendation.id, acceptRecommendation.rest.path, {
      params: acceptRecommendation.input.path,
      success: [RecommendationChangedJson, IdempotentRepeatJson],
      error: [ResourceNotFoundError, TransitionConflictError, RepositoryErrorError]
    }).annotateMerge(operation(acceptRecommendation)),
    HttpApiEndpoint.make(dismissRecommendation.rest.method)(dismissRecommendation.id, dismissRecommendation.rest.path, {
      params: dismissRecommendation.input.path,
      success: [RecommendationChangedJson, IdempotentRepeatJson],
      error: [ResourceNotFoundError, TransitionConflictError, RepositoryErrorError]
    }).annotateMerge(operation(dismissRecommendation)),
    HttpApiEndpoint.make(approveRecommendation.rest.method)(approveRecommendation.id, approveRecommendation.rest.path, {
      params: approveRecommendation.input.path,
      success: [RecommendationApprovedJson, IdempotentRepeatJson],
      error: writeBackErrors
    }).annotateMerge(operation(approveRecommendation)),
    HttpApiEndpoint.make(rejectRecommendation.rest.method)(rejectRecommendation.id, rejectRecommendation.rest.path, {
      params: rejectRecommendation.input.path,
      payload: rejectRecommendation.input.body,
      // No repeat shape: a second reject is a conflict.
      success: RecommendationChangedJson,
      error: [ForbiddenRoleError, ResourceNotFoundError, TransitionConflictError, RepositoryErrorError]
    }).annotateMerge(operation(rejectRecommendation)),
    HttpApiEndpoint.make(undoPriceChange.rest.method)(undoPriceChange.id, undoPriceChange.rest.path, {
      params: undoPriceChange.input.path,
      // No repeat shape: a second undo is a conflict.
      success: PriceChangeUndoneJson,
      error: writeBackErrors
    }).annotateMerge(operation(undoPriceChange))
  )
  .middleware(RequestValidation)
  .middleware(Authentication)

export const AlertsGroup = HttpApiGroup.make("alerts")
  .annotateMerge(OpenApi.annotations({ description: operationGroups.alerts }))
  .add(
    HttpApiEndpoint.make(listAlerts.rest.method)(listAlerts.id, listAlerts.rest.path, {
      query: restQuery(listAlerts),
      success: ListJson(AlertJson, "AlertList"),
      error: RepositoryErrorError
    }).annotateMerge(operation(listAlerts)),
    HttpApiEndpoint.make(getAlert.rest.method)(getAlert.id, getAlert.rest.path, {
      params: getAlert.input.path,
      success: AlertJson,
      error: [ResourceNotFoundError, RepositoryErrorError]
    }).annotateMerge(operation(getAlert)),
    HttpApiEndpoint.make(snoozeAlert.rest.method)(snoozeAlert.id, snoozeAlert.rest.path, {
      params: snoozeAlert.input.path,
      payload: snoozeAlert.input.body,
      success: [AlertChangedJson, IdempotentRepeatJson],
      error: [InvalidInputError, ResourceNotFoundError, TransitionConflictError, RepositoryErrorError]
    }).annotateMerge(operation(snoozeAlert)),
    HttpApiEndpoint.make(resolveAlert.rest.method)(resolveAlert.id, resolveAlert.rest.path, {
      params: resolveAlert.input.path,
      success: [AlertChangedJson, IdempotentRepeatJson],
      error: [ResourceNotFoundError, TransitionConflictError, RepositoryErrorError]
    }).annotateMerge(operation(resolveAlert)),
    HttpApiEndpoint.make(dismissAlert.rest.method)(dismissAlert.id, dismissAlert.rest.path, {
      params: dismissAlert.input.path,
      success: [AlertChangedJson, IdempotentRepeatJson],
      error: [ResourceNotFoundError, TransitionConflictError, RepositoryErrorError]
    }).annotateMerge(operation(dismissAlert))
  )
  .middleware(RequestValidation)
  .middleware(Authentication)

export const CatalogGroup = HttpApiGroup.make("catalog")
  .annotateMerge(OpenApi.annotations({ description: operationGroups.catalog }))
  .add(
    HttpApiEndpoint.make(listCatalogItems.rest.method)(listCatalogItems.id, listCatalogItems.rest.path, {
      query: restQuery(listCatalogItems),
      success: ListJson(CatalogItemJson, "CatalogItemList"),
      error: RepositoryErrorError
    }).annotateMerge(operation(listCatalogItems)),
    HttpApiEndpoint.make(importCatalog.rest.method)(importCatalog.id, importCatalog.rest.path, {
      // The file is the streamed body, not the entry's JSON body (its MCP form).
      query: restQuery(importCatalog),
      payload: HttpApiSchema.StreamUint8Array({
        contentType: [...catalogImportContentTypes],
        maxBytes: catalogImportMaxBytes
      }),
      success: CatalogImportJson.pipe(HttpApiSchema.status(201)),
      error: [InvalidInputError, RepositoryErrorError]
    }).annotateMerge(operation(importCatalog)),
    HttpApiEndpoint.make(getCatalogImport.rest.method)(getCatalogImport.id, getCatalogImport.rest.path, {
      params: getCatalogImport.input.path,
      success: CatalogImportJson,
      error: [ResourceNotFoundError, RepositoryErrorError]
    }).annotateMerge(operation(getCatalogImport)),
    HttpApiEndpoint.make(startStoreSync.rest.method)(startStoreSync.id, startStoreSync.rest.path, {
      success: StoreSyncJson.pipe(HttpApiSchema.status(202)),
      error: [NoCommerceIntegrationError, RepositoryErrorError]
    }).annotateMerge(operation(startStoreSync)),
    HttpApiEndpoint.make(getStoreSync.rest.method)(getStoreSync.id, getStoreSync.rest.path, {
      params: getStoreSync.input.path,
      success: StoreSyncJson,
      error: [ResourceNotFoundError, RepositoryErrorError]
    }).annotateMerge(operation(getStoreSync))
  )
  .middleware(RequestValidation)
  .middleware(Authentication)

export const ReportsGroup = HttpApiGroup.make("reports")
  .annotateMerge(OpenApi.annotations({ description: operationGroups.reports }))
  .add(
    // Not the entry's input: REST streams the whole report, unpaged (exportReport's binding is one
    // page, the MCP tool's form), so it takes none of the entry's input.
    HttpApiEndpoint.make(exportReport.rest.method)(exportReport.id, exportReport.rest.path, {
      success: [
        ReportCsv.annotate({ examples: [reportCsvExample] }).pipe(HttpApiSchema.asText({ contentType: "text/csv" })),
        ReportJson
      ],
      error: RepositoryErrorError
    }).annotateMerge(operation(exportReport))
  )
  .middleware(RequestValidation)
  .middleware(Authentication)

export const WorkspaceGroup = HttpApiGroup.make("workspace")
  .annotateMerge(OpenApi.annotations({ description: operationGroups.workspace }))
  .add(
    HttpApiEndpoint.make(getWorkspaceStatus.rest.method)(getWorkspaceStatus.id, getWorkspaceStatus.rest.path, {
      success: WorkspaceStatusJson,
      error: [ResourceNotFoundError, RepositoryErrorError]
    }).annotateMerge(operation(getWorkspaceStatus))
  )
  .middleware(RequestValidation)
  .middleware(Authentication)

export const HealthJson = Schema.Struct({ status: Schema.Literals(["ok", "ready"]) }).annotate({
  identifier: "Health",
  examples: [{ status: "ok" }, { status: "ready" }]
})

/** Probes for the orchestrator; no authentication, not versioned. */
export const SystemGroup = HttpApiGroup.make("system", { topLevel: true })
  .annotateMerge(OpenApi.annotations({ description: operationGroups.system }))
  .add(
    HttpApiEndpoint.make(healthz.rest.method)(healthz.id, healthz.rest.path, { success: HealthJson }).annotateMerge(
      operation(healthz)
    ),
    HttpApiEndpoint.make(readyz.rest.method)(readyz.id, readyz.rest.path, {
      success: HealthJson,
      error: RepositoryErrorError
    }).annotateMerge(operation(readyz))
  )

export class Api extends HttpApi.make("margin")
  .add(RunsGroup)
  .add(RecommendationsGroup)
  .add(AlertsGroup)
  .add(CatalogGroup)
  .add(ReportsGroup)
  .add(WorkspaceGroup)
  .add(SystemGroup)
  .annotate(HttpApi.ParseOptions, { errors: "all" })
  .annotate(HttpApi.AdditionalSchemas, transportErrors)
  // Authentication declares no HttpApiSecurity (Authentication.ts): the schemes are described here.
  // DocumentTransform says what the generator cannot (DocumentTransform.ts).
  .annotate(OpenApi.Transform, (spec) => documentTransform(withSecuritySchemes(spec)))
  .annotateMerge(
    OpenApi.annotations({
      title: "Margin Recommendation Service API",
      version: "1",
      description:
        "Pricing and margin recommendations per workspace. Authenticate with Authorization: Bearer <pck_ API token>. Every error is the envelope { code, message, request_id } (plus required or issues); response objects may gain fields and enums values within v1, request bodies are checked as declared.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      // Relative: the origin the document is served from; PUBLIC_URL names an absolute one (HttpApp).
      servers: [{ url: "/", description: "The origin this document is served from" }]
    })
  ) {}

/** Where the OpenAPI document of `Api` is served, without authentication. */
export const openApiPath = `${prefix}/openapi.json` as const
