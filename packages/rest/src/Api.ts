import { AlertStatus } from "@margin/core/Alert"
import { AlertKind } from "@margin/core/AlertFinding"
import { AlertId, RecommendationId, RunId } from "@margin/core/Ids"
import { RecommendationStatus } from "@margin/core/Recommendation"
import { RunStatus } from "@margin/core/Run"
import { Tag } from "@margin/core/Tag"
import { mutationAccess, readAccess } from "@margin/edge/auth"
import {
  AlertChangedJson,
  AlertJson,
  CatalogItemJson,
  IdempotentRepeatJson,
  isWithoutNul,
  ListJson,
  pageQueryFields,
  RecommendationApprovedJson,
  RecommendationChangedJson,
  RecommendationDetailJson,
  RecommendationJson,
  RejectBody,
  ReportCsv,
  ReportJson,
  RunJson,
  SnoozeBody,
  TriggerRunBody,
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
import { Authentication, withBearerScheme } from "./Authentication.ts"
import { operation } from "./Operation.ts"
import { RequestValidation } from "./RequestValidation.ts"

/**
 * The REST contract, v1: the ten operations of the contract plus the additive ones (docs/contract.md). The
 * OpenAPI document, the router and the request decoding all come from this one definition.
 */

const prefix = "/api/v1"

/**
 * The middlewares of every /api/v1 group (each group below lists them): what a handler group needs
 * when built on its own (IsolatedGroup).
 */
export const apiMiddlewares = [RequestValidation, Authentication] as const

const RecommendationParams = { recommendation_id: RecommendationId }
const AlertParams = { alert_id: AlertId }

export const RunsGroup = HttpApiGroup.make("runs")
  .add(
    HttpApiEndpoint.get("listRuns", `${prefix}/runs`, {
      query: { ...pageQueryFields, status: Schema.optionalKey(RunStatus) },
      success: ListJson(RunJson, "RunList"),
      error: RepositoryErrorError
    }).annotateMerge(operation(readAccess("runs:read"), "Recent runs, newest first.")),
    HttpApiEndpoint.post("triggerRun", `${prefix}/runs`, {
      payload: [TriggerRunBody, Schema.Null],
      success: RunJson.pipe(HttpApiSchema.status(202)),
      error: [EmailNotConfirmedError, PlanLimitExceededError, ResourceNotFoundError, RepositoryErrorError]
    }).annotateMerge(
      operation(
        mutationAccess("runs:trigger"),
        "Queues a run over the items carrying any of subset_tags (the whole catalog when omitted or empty) and starts it in the background; answers 202 with the queued run. Poll GET /api/v1/runs/{run_id}."
      )
    ),
    HttpApiEndpoint.get("getRun", `${prefix}/runs/:run_id`, {
      params: { run_id: RunId },
      success: RunJson,
      error: [ResourceNotFoundError, RepositoryErrorError]
    }).annotateMerge(operation(readAccess("runs:read"), "One run, with its progress counts."))
  )
  .middleware(RequestValidation)
  .middleware(Authentication)

export const RecommendationsGroup = HttpApiGroup.make("recommendations")
  .add(
    HttpApiEndpoint.get("listRecommendations", `${prefix}/recommendations`, {
      query: {
        ...pageQueryFields,
        status: Schema.optionalKey(RecommendationStatus),
        run_id: Schema.optionalKey(RunId.pipe(Schema.check(isWithoutNul)))
      },
      success: ListJson(RecommendationJson, "RecommendationList"),
      error: RepositoryErrorError
    }).annotateMerge(
      operation(
        readAccess("recommendations:read"),
        "Recommendations, newest first; filter by status (e.g. new, pending_approval) and run_id."
      )
    ),
    HttpApiEndpoint.get("getRecommendation", `${prefix}/recommendations/:recommendation_id`, {
      params: RecommendationParams,
      success: RecommendationDetailJson,
      error: [ResourceNotFoundError, RepositoryErrorError]
    }).annotateMerge(
      operation(
        readAccess("recommendations:read"),
        "One recommendation, with the state of its write-back to the store once approved."
      )
    ),
    HttpApiEndpoint.post("acceptRecommendation", `${prefix}/recommendations/:recommendation_id/accept`, {
      params: RecommendationParams,
      success: [RecommendationChangedJson, IdempotentRepeatJson],
      error: [ResourceNotFoundError, TransitionConflictError, RepositoryErrorError]
    }).annotateMerge(
      operation(
        mutationAccess("recommendations:write"),
        "new -> pending_approval. No body. A repeat answers {ok: true, idempotent: true}."
      )
    ),
    HttpApiEndpoint.post("dismissRecommendation", `${prefix}/recommendations/:recommendation_id/dismiss`, {
      params: RecommendationParams,
      success: [RecommendationChangedJson, IdempotentRepeatJson],
      error: [ResourceNotFoundError, TransitionConflictError, RepositoryErrorError]
    }).annotateMerge(
      operation(
        mutationAccess("recommendations:write"),
        "new or pending_approval -> dismissed. No body. A repeat answers {ok: true, idempotent: true}."
      )
    ),
    HttpApiEndpoint.post("approveRecommendation", `${prefix}/recommendations/:recommendation_id/approve`, {
      params: RecommendationParams,
      success: [RecommendationApprovedJson, IdempotentRepeatJson],
      error: [
        ForbiddenRoleError,
        TierIneligibleError,
        NoCommerceIntegrationError,
        ResourceNotFoundError,
        TransitionConflictError,
        RepositoryErrorError
      ]
    }).annotateMerge(
      operation(
        mutationAccess("recommendations:approve", { session: true }),
        "pending_approval -> approved, and the new price is written back to the connected store exactly once; write_back.status says whether it is applied yet. Needs the role approver, admin or owner, a Max or Enterprise plan and a connected store. No body. A repeat answers {ok: true, idempotent: true}."
      )
    ),
    HttpApiEndpoint.post("rejectRecommendation", `${prefix}/recommendations/:recommendation_id/reject`, {
      params: RecommendationParams,
      payload: RejectBody,
      success: [RecommendationChangedJson, IdempotentRepeatJson],
      error: [ForbiddenRoleError, ResourceNotFoundError, TransitionConflictError, RepositoryErrorError]
    }).annotateMerge(
      operation(
        mutationAccess("recommendations:approve", { session: true }),
        "pending_approval -> rejected, with a reason. Needs the role approver, admin or owner. A second reject is a conflict."
      )
    )
  )
  .middleware(RequestValidation)
  .middleware(Authentication)

export const AlertsGroup = HttpApiGroup.make("alerts")
  .add(
    HttpApiEndpoint.get("listAlerts", `${prefix}/alerts`, {
      query: { ...pageQueryFields, status: Schema.optionalKey(AlertStatus), kind: Schema.optionalKey(AlertKind) },
      success: ListJson(AlertJson, "AlertList"),
      error: RepositoryErrorError
    }).annotateMerge(
      operation(
        readAccess("alerts:read"),
        "Alerts, newest first; filter by status (open, snoozed, resolved, dismissed) and kind."
      )
    ),
    HttpApiEndpoint.get("getAlert", `${prefix}/alerts/:alert_id`, {
      params: AlertParams,
      success: AlertJson,
      error: [ResourceNotFoundError, RepositoryErrorError]
    }).annotateMerge(operation(readAccess("alerts:read"), "One alert.")),
    HttpApiEndpoint.post("snoozeAlert", `${prefix}/alerts/:alert_id/snooze`, {
      params: AlertParams,
      payload: SnoozeBody,
      success: [AlertChangedJson, IdempotentRepeatJson],
      error: [InvalidInputError, ResourceNotFoundError, TransitionConflictError, RepositoryErrorError]
    }).annotateMerge(
      operation(
        mutationAccess("alerts:write"),
        "open or snoozed -> snoozed until snooze_until (in the future); the alert reads open again once that time passes. The same snooze_until again answers {ok: true, idempotent: true}; a new one moves the snooze."
      )
    ),
    HttpApiEndpoint.post("resolveAlert", `${prefix}/alerts/:alert_id/resolve`, {
      params: AlertParams,
      success: [AlertChangedJson, IdempotentRepeatJson],
      error: [ResourceNotFoundError, TransitionConflictError, RepositoryErrorError]
    }).annotateMerge(
      operation(
        mutationAccess("alerts:write"),
        "open or snoozed -> resolved. No body. A repeat answers {ok: true, idempotent: true}."
      )
    ),
    HttpApiEndpoint.post("dismissAlert", `${prefix}/alerts/:alert_id/dismiss`, {
      params: AlertParams,
      success: [AlertChangedJson, IdempotentRepeatJson],
      error: [ResourceNotFoundError, TransitionConflictError, RepositoryErrorError]
    }).annotateMerge(
      operation(
        mutationAccess("alerts:write"),
        "open or snoozed -> dismissed. No body. A repeat answers {ok: true, idempotent: true}."
      )
    )
  )
  .middleware(RequestValidation)
  .middleware(Authentication)

export const CatalogGroup = HttpApiGroup.make("catalog")
  .add(
    HttpApiEndpoint.get("listCatalogItems", `${prefix}/catalog/items`, {
      query: { ...pageQueryFields, tag: Schema.optionalKey(Tag) },
      success: ListJson(CatalogItemJson, "CatalogItemList"),
      error: RepositoryErrorError
    }).annotateMerge(operation(readAccess("catalog:read"), "Catalog items, newest first; filter by tag."))
  )
  .middleware(RequestValidation)
  .middleware(Authentication)

export const ReportsGroup = HttpApiGroup.make("reports")
  .add(
    HttpApiEndpoint.get("exportReport", `${prefix}/reports/export`, {
      success: [ReportCsv.pipe(HttpApiSchema.asText({ contentType: "text/csv" })), ReportJson],
      error: RepositoryErrorError
    }).annotateMerge(
      operation(
        readAccess("reports:read"),
        "Every recommendation with its item, prices, margins, status and decision, streamed. CSV by default; JSON with Accept: application/json."
      )
    )
  )
  .middleware(RequestValidation)
  .middleware(Authentication)

export const WorkspaceGroup = HttpApiGroup.make("workspace")
  .add(
    HttpApiEndpoint.get("getWorkspaceStatus", `${prefix}/workspace/status`, {
      success: WorkspaceStatusJson,
      error: [ResourceNotFoundError, RepositoryErrorError]
    }).annotateMerge(
      operation(
        readAccess("workspace:read", { session: true }),
        "Lifecycle, usage, an open support session against this workspace and the caller's own pending account deletion."
      )
    )
  )
  .middleware(RequestValidation)
  .middleware(Authentication)

export const HealthJson = Schema.Struct({ status: Schema.Literals(["ok", "ready"]) })

/** Probes for the orchestrator; no authentication, not versioned. */
export const SystemGroup = HttpApiGroup.make("system", { topLevel: true }).add(
  HttpApiEndpoint.get("healthz", "/healthz", { success: HealthJson }).annotateMerge(
    OpenApi.annotations({ description: "The process is up." })
  ),
  HttpApiEndpoint.get("readyz", "/readyz", { success: HealthJson, error: RepositoryErrorError }).annotateMerge(
    OpenApi.annotations({ description: "The process can serve: its database answers." })
  )
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
  // Authentication declares no HttpApiSecurity (Authentication.ts): the scheme is described here.
  .annotate(OpenApi.Transform, withBearerScheme)
  .annotateMerge(
    OpenApi.annotations({
      title: "Margin Recommendation Service API",
      version: "1",
      description:
        "Pricing and margin recommendations per workspace. Authenticate with Authorization: Bearer <pck_ API token>. Errors are { code, message } (plus required or issues)."
    })
  ) {}

/** Where the OpenAPI document of `Api` is served, without authentication. */
export const openApiPath = `${prefix}/openapi.json` as const
