import { deciderRole } from "../Role.ts"
import type { Scope } from "../Scope.ts"
import {
  acceptsSession,
  defineOperation,
  type Operation,
  type OperationAccess,
  type OperationGroup
} from "./Operation.ts"

/**
 * Every operation of the service, once: the REST definition (`@margin/rest`, Api.ts) and the MCP
 * toolkit (`@margin/mcp-server`, *Tools.ts) take their names, routes, access, role rule, summary,
 * descriptions, repeat shape and hints from here, and a test of each door fails when it offers an
 * operation this list lacks or says it differently. The two descriptions stay two texts: a REST
 * reader and an agent are told different things (a body, paging), but the facts are one.
 */

const tokens = (scope: Scope): OperationAccess => ({ scope, credentials: ["token"], role: null })
const tokensAndSessions = (scope: Scope): OperationAccess => ({ scope, credentials: ["token", "session"], role: null })
/** Approve and reject: approver or above (`deciderRole`, the rule the use case applies). */
const deciders = (scope: Scope): OperationAccess => ({ scope, credentials: ["token", "session"], role: deciderRole })

/** What each group holds: the OpenAPI tags' descriptions. */
export const operationGroups: Readonly<Record<OperationGroup, string>> = {
  runs: "Analysis runs: each prices the catalog (or the items of some tags) and leaves recommendations.",
  recommendations:
    "Price recommendations and their decisions: accept, dismiss, approve (written back to the store), reject.",
  alerts: "Alerts about margins, costs, store prices and write-backs, and what was done about them.",
  catalog:
    "The workspace's catalog items with their prices, costs, floors and ceilings, and the imports that bring them.",
  reports: "The margin report: one row per recommendation.",
  workspace: "The workspace's lifecycle, plan and usage.",
  system: "Probes for the orchestrator, without authentication and outside /api/v1."
}

export const listRuns = defineOperation({
  id: "listRuns",
  group: "runs",
  summary: "List runs",
  access: tokens("runs:read"),
  repeat: "read",
  rest: { method: "GET", path: "/api/v1/runs", description: "Recent runs, newest first." },
  mcp: {
    name: "list_runs",
    description:
      "Analysis runs of the workspace, newest first, optionally one status. Answers one page: pass its next_cursor as cursor for the next.",
    destructive: false,
    openWorld: false
  }
})

export const triggerRun = defineOperation({
  id: "triggerRun",
  group: "runs",
  summary: "Trigger a run",
  access: tokens("runs:trigger"),
  repeat: "new",
  rest: {
    method: "POST",
    path: "/api/v1/runs",
    description:
      "Queues a run over the items carrying any of subset_tags (the whole catalog when omitted or empty) and starts it in the background; answers 202 with the queued run. Poll GET /api/v1/runs/{run_id}."
  },
  mcp: {
    name: "trigger_run",
    description:
      "Queues an analysis run over the catalog items carrying any of subset_tags (the whole catalog when omitted or empty) and starts it; answers the queued run. Each call queues a new run and counts against the plan's monthly runs.",
    destructive: false,
    openWorld: false
  }
})

export const getRun = defineOperation({
  id: "getRun",
  group: "runs",
  summary: "Get a run",
  access: tokens("runs:read"),
  repeat: "read",
  rest: { method: "GET", path: "/api/v1/runs/:run_id", description: "One run, with its progress counts." },
  mcp: {
    name: "get_run",
    description: "One run with its status and progress counts; poll it after trigger_run.",
    destructive: false,
    openWorld: false
  }
})

export const listRecommendations = defineOperation({
  id: "listRecommendations",
  group: "recommendations",
  summary: "List recommendations",
  access: tokens("recommendations:read"),
  repeat: "read",
  rest: {
    method: "GET",
    path: "/api/v1/recommendations",
    description: "Recommendations, newest first; filter by status (e.g. new, pending_approval) and run_id."
  },
  mcp: {
    name: "list_recommendations",
    description:
      "Price recommendations, newest first; filter by status (new, pending_approval, approved, applied, ...) and run_id. Answers one page: pass its next_cursor as cursor for the next.",
    destructive: false,
    openWorld: false
  }
})

export const getRecommendation = defineOperation({
  id: "getRecommendation",
  group: "recommendations",
  summary: "Get a recommendation",
  access: tokens("recommendations:read"),
  repeat: "read",
  rest: {
    method: "GET",
    path: "/api/v1/recommendations/:recommendation_id",
    description: "One recommendation, with the state of its write-back to the store once approved."
  },
  mcp: {
    name: "get_recommendation",
    description: "One recommendation: prices, margins, the rule behind it, its status and decision.",
    destructive: false,
    openWorld: false
  }
})

export const acceptRecommendation = defineOperation({
  id: "acceptRecommendation",
  group: "recommendations",
  summary: "Accept a recommendation",
  access: tokens("recommendations:write"),
  repeat: "idempotent",
  rest: {
    method: "POST",
    path: "/api/v1/recommendations/:recommendation_id/accept",
    description: "new -> pending_approval. No body. A repeat answers {ok: true, idempotent: true}."
  },
  mcp: {
    name: "accept_recommendation",
    description:
      "new -> pending_approval: puts the recommendation up for approval. Nothing reaches the store yet. A repeat answers idempotent: true.",
    destructive: false,
    openWorld: false
  }
})

export const dismissRecommendation = defineOperation({
  id: "dismissRecommendation",
  group: "recommendations",
  summary: "Dismiss a recommendation",
  access: tokens("recommendations:write"),
  repeat: "idempotent",
  rest: {
    method: "POST",
    path: "/api/v1/recommendations/:recommendation_id/dismiss",
    description: "new or pending_approval -> dismissed. No body. A repeat answers {ok: true, idempotent: true}."
  },
  mcp: {
    name: "dismiss_recommendation",
    description:
      "new or pending_approval -> dismissed, for good: it can no longer be approved. A repeat answers idempotent: true.",
    destructive: true,
    openWorld: false
  }
})

export const approveRecommendation = defineOperation({
  id: "approveRecommendation",
  group: "recommendations",
  summary: "Approve a recommendation",
  access: deciders("recommendations:approve"),
  repeat: "idempotent",
  rest: {
    method: "POST",
    path: "/api/v1/recommendations/:recommendation_id/approve",
    description:
      "pending_approval -> approved, and the new price is written back to the connected store exactly once; write_back.status says whether it is applied yet. Needs the role approver, admin or owner, a Max or Enterprise plan and a connected store. No body. A repeat answers {ok: true, idempotent: true}."
  },
  mcp: {
    name: "approve_recommendation",
    description:
      "pending_approval -> approved, and the new price is written to the connected store exactly once (write_back.status tells whether it is applied yet). Needs the role approver, admin or owner, a Max or Enterprise plan and a connected store. A repeat answers idempotent: true and writes nothing.",
    destructive: true,
    openWorld: true
  }
})

export const rejectRecommendation = defineOperation({
  id: "rejectRecommendation",
  group: "recommendations",
  summary: "Reject a recommendation",
  access: deciders("recommendations:approve"),
  repeat: "conflict",
  rest: {
    method: "POST",
    path: "/api/v1/recommendations/:recommendation_id/reject",
    description:
      "pending_approval -> rejected, with a reason. Needs the role approver, admin or owner. A second reject is a conflict."
  },
  mcp: {
    name: "reject_recommendation",
    description:
      "pending_approval -> rejected, with a reason, for good. Needs the role approver, admin or owner. A second reject is a conflict.",
    destructive: true,
    openWorld: false
  }
})

export const listAlerts = defineOperation({
  id: "listAlerts",
  group: "alerts",
  summary: "List alerts",
  access: tokens("alerts:read"),
  repeat: "read",
  rest: {
    method: "GET",
    path: "/api/v1/alerts",
    description: "Alerts, newest first; filter by status (open, snoozed, resolved, dismissed) and kind."
  },
  mcp: {
    name: "list_alerts",
    description:
      "Alerts (negative margin, margin below floor, missing or changed cost, store price drift, failed write-back), newest first; filter by status (open, snoozed, resolved, dismissed) and kind. Answers one page: pass its next_cursor as cursor for the next.",
    destructive: false,
    openWorld: false
  }
})

export const getAlert = defineOperation({
  id: "getAlert",
  group: "alerts",
  summary: "Get an alert",
  access: tokens("alerts:read"),
  repeat: "read",
  rest: { method: "GET", path: "/api/v1/alerts/:alert_id", description: "One alert." },
  mcp: {
    name: "get_alert",
    description: "One alert with its effective status (a snooze whose time has passed reads open).",
    destructive: false,
    openWorld: false
  }
})

export const snoozeAlert = defineOperation({
  id: "snoozeAlert",
  group: "alerts",
  summary: "Snooze an alert",
  access: tokens("alerts:write"),
  repeat: "idempotent",
  rest: {
    method: "POST",
    path: "/api/v1/alerts/:alert_id/snooze",
    description:
      "open or snoozed -> snoozed until snooze_until (in the future); the alert reads open again once that time passes. The same snooze_until again answers {ok: true, idempotent: true}; a new one moves the snooze."
  },
  mcp: {
    name: "snooze_alert",
    description:
      "open or snoozed -> snoozed until snooze_until (ISO 8601 UTC, in the future); the alert reads open again once that time passes. The same snooze_until again answers idempotent: true; a new one moves the snooze.",
    destructive: false,
    openWorld: false
  }
})

export const resolveAlert = defineOperation({
  id: "resolveAlert",
  group: "alerts",
  summary: "Resolve an alert",
  access: tokens("alerts:write"),
  repeat: "idempotent",
  rest: {
    method: "POST",
    path: "/api/v1/alerts/:alert_id/resolve",
    description: "open or snoozed -> resolved. No body. A repeat answers {ok: true, idempotent: true}."
  },
  mcp: {
    name: "resolve_alert",
    description: "open or snoozed -> resolved, for good. A repeat answers idempotent: true.",
    destructive: true,
    openWorld: false
  }
})

export const dismissAlert = defineOperation({
  id: "dismissAlert",
  group: "alerts",
  summary: "Dismiss an alert",
  access: tokens("alerts:write"),
  repeat: "idempotent",
  rest: {
    method: "POST",
    path: "/api/v1/alerts/:alert_id/dismiss",
    description: "open or snoozed -> dismissed. No body. A repeat answers {ok: true, idempotent: true}."
  },
  mcp: {
    name: "dismiss_alert",
    description: "open or snoozed -> dismissed, for good. A repeat answers idempotent: true.",
    destructive: true,
    openWorld: false
  }
})

export const listCatalogItems = defineOperation({
  id: "listCatalogItems",
  group: "catalog",
  summary: "List catalog items",
  access: tokens("catalog:read"),
  repeat: "read",
  rest: { method: "GET", path: "/api/v1/catalog/items", description: "Catalog items, newest first; filter by tag." },
  mcp: {
    name: "list_catalog_items",
    description:
      "Catalog items with price, cost, floor and ceiling (money in integer minor units), newest first, optionally one tag. Answers one page: pass its next_cursor as cursor for the next.",
    destructive: false,
    openWorld: false
  }
})

export const importCatalog = defineOperation({
  id: "importCatalog",
  group: "catalog",
  summary: "Import a catalog file",
  access: tokens("catalog:write"),
  repeat: "new",
  rest: {
    method: "POST",
    path: "/api/v1/catalog/imports",
    description:
      "Imports a catalog file streamed as the body (Content-Type text/csv with a header line, or application/x-ndjson, one JSON object a line), by sku, in one transaction: a line changes only the columns it mentions; an empty cell keeps a field, the cell null (JSON null) clears a field that may be unknown; a price older than the item's (observed_at, or the price a write-back replaced) is kept out. ?dry_run=true decides every line and writes nothing. Answers 201 with the import: its summary counts created, price, cost and other changes, unchanged lines, stale prices and rejected lines with their errors. A file that cannot be read as a catalog (no sku column, an empty CSV) is 422."
  },
  mcp: {
    name: "import_catalog",
    description:
      "Imports catalog lines into the workspace by sku: content is the file's text, CSV (a header line naming the columns: sku plus any of title, tags, currency, price, cost, compare_at_price, min_price, max_price, inventory, units_sold_30d, store_product_ref, store_variant_ref, competitor_price, observed_at) or JSONL (one object a line with those keys). A line changes only what it mentions; an empty cell keeps a field, null clears it. Amounts are decimal strings in major units. dry_run: true reports what it would do and writes nothing. Answers the import with its summary (created, price_changed, cost_changed, other_changed, unchanged, stale_price, rejected lines with errors). Each call is a new import.",
    destructive: true,
    openWorld: false
  }
})

export const getCatalogImport = defineOperation({
  id: "getCatalogImport",
  group: "catalog",
  summary: "Get an import of the catalog",
  access: tokens("catalog:read"),
  repeat: "read",
  rest: {
    method: "GET",
    path: "/api/v1/catalog/imports/:import_id",
    description: "One import as it ran: its status, whether it was a dry run, and its summary."
  },
  mcp: {
    name: "get_catalog_import",
    description: "One catalog import by its id: its status, whether it was a dry run, and the summary of what it did.",
    destructive: false,
    openWorld: false
  }
})

export const exportReport = defineOperation({
  id: "exportReport",
  group: "reports",
  summary: "Export the report",
  access: tokens("reports:read"),
  repeat: "read",
  rest: {
    method: "GET",
    path: "/api/v1/reports/export",
    description:
      "Every recommendation with its item, prices, margins, status and decision, streamed. CSV by default; JSON with Accept: application/json."
  },
  mcp: {
    name: "export_report",
    description:
      "The margin report: one row per recommendation with its item, prices, margins, status and decision, newest first. Answers one page: pass its next_cursor as cursor for the next; next_cursor null is the last page.",
    destructive: false,
    openWorld: false
  }
})

export const getWorkspaceStatus = defineOperation({
  id: "getWorkspaceStatus",
  group: "workspace",
  summary: "Workspace status",
  access: tokensAndSessions("workspace:read"),
  repeat: "read",
  rest: {
    method: "GET",
    path: "/api/v1/workspace/status",
    description:
      "Lifecycle, usage, an open support session against this workspace and the caller's own pending account deletion."
  },
  mcp: {
    name: "get_workspace_status",
    description:
      "The workspace's lifecycle and plan, this month's usage against the plan's limits, an open support session against the workspace, and the token issuer's own pending account deletion.",
    destructive: false,
    openWorld: false
  }
})

export const healthz = defineOperation({
  id: "healthz",
  group: "system",
  summary: "Liveness",
  access: null,
  repeat: "read",
  rest: { method: "GET", path: "/healthz", description: "The process is up." },
  mcp: null
})

export const readyz = defineOperation({
  id: "readyz",
  group: "system",
  summary: "Readiness",
  access: null,
  repeat: "read",
  rest: { method: "GET", path: "/readyz", description: "The process can serve: its database answers." },
  mcp: null
})

/** The catalogue in the order the doors list it. */
export const operationCatalogue: ReadonlyArray<Operation> = [
  listRuns,
  triggerRun,
  getRun,
  listRecommendations,
  getRecommendation,
  acceptRecommendation,
  dismissRecommendation,
  approveRecommendation,
  rejectRecommendation,
  listAlerts,
  getAlert,
  snoozeAlert,
  resolveAlert,
  dismissAlert,
  listCatalogItems,
  importCatalog,
  getCatalogImport,
  exportReport,
  getWorkspaceStatus,
  healthz,
  readyz
]

/** The operation an MCP tool offers, by the tool's name. */
export const operationOfTool: ReadonlyMap<string, Operation> = new Map(
  operationCatalogue.flatMap((entry) => (entry.mcp === null ? [] : [[entry.mcp.name, entry] as const]))
)

/** What a session caller may do: the scopes of exactly the operations that accept a session. */
export const sessionScopes: ReadonlyArray<Scope> = [
  ...new Set(
    operationCatalogue.flatMap((entry) => (entry.access !== null && acceptsSession(entry) ? [entry.access.scope] : []))
  )
]
