import type { Scope } from "@margin/core/access/Scope"
import type { CallOptions } from "@margin/runtime/testing/TestServer"
import type { HttpMethod } from "effect/http"

/**
 * Every /api/v1 operation with a request that passes validation, against ids that do not
 * exist: enough to exercise every check that comes before the resource lookup.
 */
export interface Operation {
  readonly name: string
  readonly method: HttpMethod.HttpMethod
  readonly path: string
  readonly body?: unknown
  /** Headers the body needs (its media type when it is not JSON). */
  readonly headers?: Readonly<Record<string, string>>
  readonly scope: Scope
  readonly mutation: boolean
  readonly session: boolean
}

const future = "2099-01-01T00:00:00Z"

export const operations: ReadonlyArray<Operation> = [
  { name: "listRuns", method: "GET", path: "/api/v1/runs", scope: "runs:read", mutation: false, session: false },
  {
    name: "triggerRun",
    method: "POST",
    path: "/api/v1/runs",
    body: { subset_tags: ["nothing-has-this-tag"] },
    scope: "runs:trigger",
    mutation: true,
    session: false
  },
  {
    name: "getRun",
    method: "GET",
    path: "/api/v1/runs/run_missing",
    scope: "runs:read",
    mutation: false,
    session: false
  },
  {
    name: "listRecommendations",
    method: "GET",
    path: "/api/v1/recommendations?status=new",
    scope: "recommendations:read",
    mutation: false,
    session: false
  },
  {
    name: "getRecommendation",
    method: "GET",
    path: "/api/v1/recommendations/rec_missing",
    scope: "recommendations:read",
    mutation: false,
    session: false
  },
  {
    name: "acceptRecommendation",
    method: "POST",
    path: "/api/v1/recommendations/rec_missing/accept",
    scope: "recommendations:write",
    mutation: true,
    session: false
  },
  {
    name: "dismissRecommendation",
    method: "POST",
    path: "/api/v1/recommendations/rec_missing/dismiss",
    scope: "recommendations:write",
    mutation: true,
    session: false
  },
  {
    name: "approveRecommendation",
    method: "POST",
    path: "/api/v1/recommendations/rec_missing/approve",
    scope: "recommendations:approve",
    mutation: true,
    session: true
  },
  {
    name: "rejectRecommendation",
    method: "POST",
    path: "/api/v1/recommendations/rec_missing/reject",
    body: { reason: "not now" },
    scope: "recommendations:approve",
    mutation: true,
    session: true
  },
  {
    name: "undoPriceChange",
    method: "POST",
    path: "/api/v1/recommendations/rec_missing/undo",
    scope: "recommendations:approve",
    mutation: true,
    session: true
  },
  { name: "listAlerts", method: "GET", path: "/api/v1/alerts", scope: "alerts:read", mutation: false, session: false },
  {
    name: "getAlert",
    method: "GET",
    path: "/api/v1/alerts/alt_missing",
    scope: "alerts:read",
    mutation: false,
    session: false
  },
  {
    name: "snoozeAlert",
    method: "POST",
    path: "/api/v1/alerts/alt_missing/snooze",
    body: { snooze_until: future, reason: "later" },
    scope: "alerts:write",
    mutation: true,
    session: false
  },
  {
    name: "resolveAlert",
    method: "POST",
    path: "/api/v1/alerts/alt_missing/resolve",
    scope: "alerts:write",
    mutation: true,
    session: false
  },
  {
    name: "dismissAlert",
    method: "POST",
    path: "/api/v1/alerts/alt_missing/dismiss",
    scope: "alerts:write",
    mutation: true,
    session: false
  },
  {
    name: "listCatalogItems",
    method: "GET",
    path: "/api/v1/catalog/items",
    scope: "catalog:read",
    mutation: false,
    session: false
  },
  {
    name: "importCatalog",
    method: "POST",
    path: "/api/v1/catalog/imports?dry_run=true",
    body: "sku,price\nNOTHING-HAS-THIS-SKU,1.00\n",
    headers: { "content-type": "text/csv" },
    scope: "catalog:write",
    mutation: true,
    session: false
  },
  {
    name: "getCatalogImport",
    method: "GET",
    path: "/api/v1/catalog/imports/imp_missing",
    scope: "catalog:read",
    mutation: false,
    session: false
  },
  {
    name: "startStoreSync",
    method: "POST",
    path: "/api/v1/store/syncs",
    scope: "catalog:write",
    mutation: true,
    session: false
  },
  {
    name: "getStoreSync",
    method: "GET",
    path: "/api/v1/store/syncs/syn_missing",
    scope: "catalog:read",
    mutation: false,
    session: false
  },
  {
    name: "exportReport",
    method: "GET",
    path: "/api/v1/reports/export",
    scope: "reports:read",
    mutation: false,
    session: false
  },
  {
    name: "getWorkspaceStatus",
    method: "GET",
    path: "/api/v1/workspace/status",
    scope: "workspace:read",
    mutation: false,
    session: true
  }
]

/** The call options of an operation's request: its body and the headers it needs, with `options`. */
export const requestOptions = (operation: Operation, options: CallOptions): CallOptions =>
  operation.body === undefined
    ? options
    : { ...options, body: operation.body, headers: { ...operation.headers, ...options.headers } }
