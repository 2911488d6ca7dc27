import { Effect, Schema, SchemaTransformation, Stream } from "effect"
import { deciderRole } from "../access/Role.ts"
import type { Scope } from "../access/Scope.ts"
import { AlertStatus } from "../alerts/Alert.ts"
import { AlertKind } from "../alerts/AlertFinding.ts"
import { Alerts } from "../alerts/Alerts.ts"
import { Catalog } from "../catalog/Catalog.ts"
import { CatalogImportFormat } from "../catalog/CatalogImportRecord.ts"
import { CatalogImports } from "../catalog/CatalogImports.ts"
import { Tag } from "../catalog/Tag.ts"
import { IdempotencyKey } from "../kernel/IdempotencyKey.ts"
import { AlertId, CatalogImportId, RecommendationId, RunId, StoreSyncId } from "../kernel/Ids.ts"
import type { Page } from "../kernel/Page.ts"
import { RuleCode } from "../pricing/PriceRecommendation.ts"
import { Approval } from "../recommendations/Approval.ts"
import { RecommendationStatus } from "../recommendations/Recommendation.ts"
import { Recommendations } from "../recommendations/Recommendations.ts"
import { type ReportRow, reportRow } from "../recommendations/ReportExport.ts"
import { BackgroundRuns } from "../runs/BackgroundRuns.ts"
import { RunStatus } from "../runs/Run.ts"
import { Runs } from "../runs/Runs.ts"
import { StoreSyncJobs } from "../stores/StoreSyncJobs.ts"
import { WorkspaceStatus } from "../workspaces/WorkspaceStatus.ts"
import { PriceChanges } from "../writeback/PriceChanges.ts"
import {
  acceptsSession,
  bindTo,
  defineOperation,
  defineProbe,
  type Operation,
  type OperationAccess,
  type OperationGroup
} from "./Operation.ts"
import { RejectBody, SnoozeBody, TriggerRunBody } from "./OperationBodies.ts"
import { Input, isWithoutNul, noBody, noHeaders, noInput, pageInput, pageRequestOf } from "./OperationInput.ts"

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

/** The input fields operations share, each with the description every door shows. */
const recommendationIdParam = RecommendationId.annotate({ description: "the recommendation's id (rec_…)" })
const alertIdParam = AlertId.annotate({ description: "the alert's id (alt_…)" })
const runIdParam = RunId.annotate({ description: "the run's id (run_…)" })
const runStatusFilter = RunStatus.annotate({ description: "only runs in this status" })
const recommendationStatusFilter = RecommendationStatus.annotate({
  description: "only recommendations in this status"
})
// A filter reaches the query: no NUL (isWithoutNul), refused alike by every door.
const runIdFilter = RunId.pipe(Schema.check(isWithoutNul)).annotate({
  description: "only the recommendations of this run (run_…)"
})
const alertStatusFilter = AlertStatus.annotate({
  description: "only alerts in this status (a snooze past its time reads open)"
})
const alertKindFilter = AlertKind.annotate({ description: "only alerts of this kind" })
const tagFilter = Tag.annotate({ description: "only the items carrying this tag" })
const recommendationTagFilter = Tag.annotate({ description: "only the recommendations of items carrying this tag now" })
const ruleFilter = RuleCode.annotate({ description: "only the recommendations issued under this rule" })
// A search reaches the query: no NUL, at most 100 characters.
const skuSearch = Schema.String.pipe(Schema.check(isWithoutNul), Schema.check(Schema.isMaxLength(100))).annotate({
  description: "only the items whose SKU contains this text (case-insensitive)"
})

const recommendationInput = {
  path: { recommendation_id: recommendationIdParam },
  query: Input.Struct({}),
  body: noBody,
  headers: noHeaders
}
const alertInput = { path: { alert_id: alertIdParam }, query: Input.Struct({}), body: noBody, headers: noHeaders }

/** What each group holds: the OpenAPI tags' descriptions. */
export const operationGroups: Readonly<Record<OperationGroup, string>> = {
  runs: "Analysis runs: each prices the catalog (or the items of some tags) and leaves recommendations.",
  recommendations:
    "Price recommendations and their decisions: accept, dismiss, approve (written back to the store), reject.",
  alerts: "Alerts about margins, costs, store prices and write-backs, and what was done about them.",
  catalog:
    "The workspace's catalog items with their prices, costs, floors and ceilings, and the imports and store syncs that bring them.",
  reports: "The margin report: one row per recommendation.",
  workspace: "The workspace's lifecycle, plan and usage.",
  system: "Probes for the orchestrator, without authentication and outside /api/v1."
}

export const listRuns = defineOperation(
  {
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
  },
  {
    path: {},
    query: Input.Struct({ ...pageInput, status: Schema.optionalKey(runStatusFilter) }),
    body: noBody,
    headers: noHeaders
  },
  bindTo(
    Runs,
    (runs) => (input, caller) => runs.list(caller.workspaceId, { status: input.status ?? null }, pageRequestOf(input))
  )
)

/** What a trigger reads beside its body: REST's `Idempotency-Key` header, MCP's `idempotency_key`. */
export const triggerRunHeaders = Schema.Struct({ idempotency_key: Schema.optionalKey(IdempotencyKey) })

export const triggerRun = defineOperation(
  {
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
  },
  { path: {}, query: Input.Struct({}), body: TriggerRunBody, bodyMayBeAbsent: true, headers: triggerRunHeaders },
  Effect.map(
    Effect.all([Effect.service(Runs), Effect.service(BackgroundRuns)]),
    // Trigger-and-wake: the run is queued, then this process's run worker is told to claim it now.
    ([runs, background]) =>
      (input, caller) =>
        runs
          .trigger(
            caller.workspaceId,
            input.subset_tags ?? [],
            caller.door,
            caller.actor,
            input.idempotency_key === undefined ? {} : { idempotencyKey: input.idempotency_key }
          )
          .pipe(Effect.tap(background.start))
  )
)

export const getRun = defineOperation(
  {
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
  },
  { path: { run_id: runIdParam }, query: Input.Struct({}), body: noBody, headers: noHeaders },
  bindTo(Runs, (runs) => (input, caller) => runs.get(caller.workspaceId, input.run_id))
)

export const listRecommendations = defineOperation(
  {
    id: "listRecommendations",
    group: "recommendations",
    summary: "List recommendations",
    access: tokens("recommendations:read"),
    repeat: "read",
    rest: {
      method: "GET",
      path: "/api/v1/recommendations",
      description:
        "Recommendations, newest first; filter by status (e.g. new, pending_approval), run_id, the item's tag and the rule."
    },
    mcp: {
      name: "list_recommendations",
      description:
        "Price recommendations, newest first; filter by status (new, pending_approval, approved, applied, ...), run_id, tag (of the item) and rule. Answers one page: pass its next_cursor as cursor for the next.",
      destructive: false,
      openWorld: false
    }
  },
  {
    path: {},
    query: Input.Struct({
      ...pageInput,
      status: Schema.optionalKey(recommendationStatusFilter),
      run_id: Schema.optionalKey(runIdFilter),
      tag: Schema.optionalKey(recommendationTagFilter),
      rule: Schema.optionalKey(ruleFilter)
    }),
    body: noBody,
    headers: noHeaders
  },
  bindTo(
    Recommendations,
    (recommendations) => (input, caller) =>
      recommendations.list(
        caller.workspaceId,
        { status: input.status ?? null, runId: input.run_id ?? null, tag: input.tag ?? null, rule: input.rule ?? null },
        pageRequestOf(input)
      )
  )
)

export const getRecommendation = defineOperation(
  {
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
  },
  recommendationInput,
  bindTo(
    Recommendations,
    (recommendations) => (input, caller) => recommendations.getDetail(caller.workspaceId, input.recommendation_id)
  )
)

export const acceptRecommendation = defineOperation(
  {
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
  },
  recommendationInput,
  bindTo(
    Recommendations,
    (recommendations) => (input, caller) =>
      recommendations.accept(caller.workspaceId, input.recommendation_id, caller.actor)
  )
)

export const dismissRecommendation = defineOperation(
  {
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
  },
  recommendationInput,
  bindTo(
    Recommendations,
    (recommendations) => (input, caller) =>
      recommendations.dismiss(caller.workspaceId, input.recommendation_id, caller.actor)
  )
)

export const approveRecommendation = defineOperation(
  {
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
  },
  recommendationInput,
  // The role rule is the use case's: the door passes the caller's role and checks none itself.
  bindTo(
    Approval,
    (approval) => (input, caller) =>
      approval.approve(caller.workspaceId, input.recommendation_id, caller.actor, caller.role)
  )
)

export const rejectRecommendation = defineOperation(
  {
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
  },
  { ...recommendationInput, body: RejectBody, headers: noHeaders },
  bindTo(
    Recommendations,
    (recommendations) => (input, caller) =>
      recommendations.reject(caller.workspaceId, input.recommendation_id, caller.actor, caller.role, input.reason)
  )
)

export const undoPriceChange = defineOperation(
  {
    id: "undoPriceChange",
    group: "recommendations",
    summary: "Undo an applied price change",
    access: deciders("recommendations:approve"),
    repeat: "conflict",
    rest: {
      method: "POST",
      path: "/api/v1/recommendations/:recommendation_id/undo",
      description:
        "Writes the price an applied recommendation replaced back to the connected store, exactly once, through the same outbox as an approval; write_back.status says whether it is applied yet. The recommendation stays applied. Refused (409) when its write-back is not applied, when it was undone already (a change is undone at most once: a second undo is a conflict), or when the item's price moved since it was applied. Needs the role approver, admin or owner, a Max or Enterprise plan and a connected store. No body."
    },
    mcp: {
      name: "undo_price_change",
      description:
        "Undoes an applied price change: writes the price the recommendation replaced back to the connected store, exactly once (write_back.status tells whether it is applied yet). Refused with the reason when the change is not applied, was undone already (a second undo is a conflict), or the item's price moved since. Needs the role approver, admin or owner, a Max or Enterprise plan and a connected store.",
      destructive: true,
      openWorld: true
    }
  },
  recommendationInput,
  // The role rule is the use case's, as approve's.
  bindTo(
    PriceChanges,
    (changes) => (input, caller) => changes.undo(caller.workspaceId, input.recommendation_id, caller.actor, caller.role)
  )
)

export const listAlerts = defineOperation(
  {
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
  },
  {
    path: {},
    query: Input.Struct({
      ...pageInput,
      status: Schema.optionalKey(alertStatusFilter),
      kind: Schema.optionalKey(alertKindFilter)
    }),
    body: noBody,
    headers: noHeaders
  },
  bindTo(
    Alerts,
    (alerts) => (input, caller) =>
      alerts.list(
        caller.workspaceId,
        { status: input.status ?? null, kind: input.kind ?? null, itemId: null },
        pageRequestOf(input)
      )
  )
)

export const getAlert = defineOperation(
  {
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
  },
  alertInput,
  bindTo(Alerts, (alerts) => (input, caller) => alerts.get(caller.workspaceId, input.alert_id))
)

export const snoozeAlert = defineOperation(
  {
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
  },
  { ...alertInput, body: SnoozeBody, headers: noHeaders },
  bindTo(
    Alerts,
    (alerts) => (input, caller) =>
      alerts.snooze(caller.workspaceId, input.alert_id, input.snooze_until, input.reason, caller.actor)
  )
)

export const resolveAlert = defineOperation(
  {
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
  },
  alertInput,
  bindTo(Alerts, (alerts) => (input, caller) => alerts.resolve(caller.workspaceId, input.alert_id, caller.actor))
)

export const dismissAlert = defineOperation(
  {
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
  },
  alertInput,
  bindTo(Alerts, (alerts) => (input, caller) => alerts.dismiss(caller.workspaceId, input.alert_id, caller.actor))
)

export const listCatalogItems = defineOperation(
  {
    id: "listCatalogItems",
    group: "catalog",
    summary: "List catalog items",
    access: tokens("catalog:read"),
    repeat: "read",
    rest: {
      method: "GET",
      path: "/api/v1/catalog/items",
      description: "Catalog items, newest first; filter by tag and search by a part of the SKU."
    },
    mcp: {
      name: "list_catalog_items",
      description:
        "Catalog items with price, cost, floor and ceiling (money in integer minor units), newest first, optionally one tag or a part of the SKU (sku). Answers one page: pass its next_cursor as cursor for the next.",
      destructive: false,
      openWorld: false
    }
  },
  {
    path: {},
    query: Input.Struct({ ...pageInput, tag: Schema.optionalKey(tagFilter), sku: Schema.optionalKey(skuSearch) }),
    body: noBody,
    headers: noHeaders
  },
  bindTo(
    Catalog,
    (catalog) => (input, caller) =>
      catalog.list(caller.workspaceId, { tag: input.tag ?? null, sku: input.sku ?? null }, pageRequestOf(input))
  )
)

const importIdParam = CatalogImportId.annotate({ description: "the id that importing answered with" })

/** What an agent sends: the text of a file, at most 1 MiB of it per call (larger files go over REST, streamed). */
const ImportContent = Schema.String.pipe(Schema.check(Schema.isMaxLength(1024 * 1024))).annotate({
  description:
    "the file's text: CSV with a header line naming its columns (sku plus any of title, tags, currency, price, cost, compare_at_price, min_price, max_price, inventory, units_sold_30d, store_product_ref, store_variant_ref, competitor_price, observed_at), or JSON lines with those keys; at most 1 MiB"
})

const dryRunDescription = "decide every line and report, writing nothing"

/**
 * `importCatalog` over REST streams the file as the request's body (CSV or JSON lines by its
 * Content-Type) and its handler hands that stream to `CatalogImports.run`; the binding below is the
 * MCP form, whose file is one argument.
 */
export const importCatalog = defineOperation(
  {
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
  },
  {
    path: {},
    query: Input.Struct({
      dry_run: Input.Field({
        json: Schema.optionalKey(Schema.Boolean.annotate({ description: dryRunDescription })),
        query: Schema.optionalKey(
          Schema.Literals(["true", "false"])
            .pipe(
              Schema.decodeTo(
                Schema.Boolean,
                SchemaTransformation.transform({
                  decode: (text) => text === "true",
                  encode: (on) => (on ? "true" : "false")
                })
              )
            )
            .annotate({ description: dryRunDescription })
        )
      })
    }),
    body: Schema.Struct({
      format: CatalogImportFormat.annotate({ description: "csv or jsonl" }),
      content: ImportContent
    }),
    headers: noHeaders
  },
  bindTo(
    CatalogImports,
    (imports) => (input, caller) =>
      imports.run({
        workspaceId: caller.workspaceId,
        format: input.format,
        lines: Stream.make(input.content).pipe(Stream.splitLines),
        dryRun: input.dry_run ?? false,
        actor: caller.actor
      })
  )
)

export const getCatalogImport = defineOperation(
  {
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
      description:
        "One catalog import by its id: its status, whether it was a dry run, and the summary of what it did.",
      destructive: false,
      openWorld: false
    }
  },
  { path: { import_id: importIdParam }, query: Input.Struct({}), body: noBody, headers: noHeaders },
  bindTo(CatalogImports, (imports) => (input, caller) => imports.get(caller.workspaceId, input.import_id))
)

export const startStoreSync = defineOperation(
  {
    id: "startStoreSync",
    group: "catalog",
    summary: "Sync the catalog from the store",
    access: tokens("catalog:write"),
    repeat: "new",
    rest: {
      method: "POST",
      path: "/api/v1/store/syncs",
      description:
        "Starts a sync of the catalog from the workspace's connected store (Shopify or the sandbox): a worker reads the store (the whole store the first time and once a day, else what changed) and applies it as an import does, keeping what the store does not say; the store is only read. Answers 202 with the sync, queued; while one is queued or running, answers that one. Poll GET /api/v1/store/syncs/{sync_id} for its status and summary. 422 no_commerce_integration when no store is connected."
    },
    mcp: {
      name: "sync_store",
      description:
        "Starts a sync of the catalog from the workspace's connected store (read only; the first sync and one a day read the whole store, the others what changed). Answers the sync, queued (or the one already queued or running); call get_store_sync with its id until status is succeeded (its summary counts created, price/cost/other changes, unchanged, stale prices, rejected variants) or failed (error says why). Fails with no_commerce_integration when no store is connected. Each call starts a new sync unless one is queued or running.",
      destructive: true,
      openWorld: true
    }
  },
  noInput,
  bindTo(StoreSyncJobs, (syncs) => (_input, caller) => syncs.request(caller.workspaceId, caller.actor))
)

export const getStoreSync = defineOperation(
  {
    id: "getStoreSync",
    group: "catalog",
    summary: "Get a sync of the store",
    access: tokens("catalog:read"),
    repeat: "read",
    rest: {
      method: "GET",
      path: "/api/v1/store/syncs/:sync_id",
      description:
        "One sync of the store: queued, running, succeeded (with its summary, counted as for an import) or failed (with the reason); a scheduled one names its slot and the run queued after it."
    },
    mcp: {
      name: "get_store_sync",
      description:
        "One store sync by its id: status (queued, running, succeeded, failed), its summary once succeeded, the error once failed, and for a scheduled sync its slot and the run queued after it.",
      destructive: false,
      openWorld: false
    }
  },
  {
    path: { sync_id: StoreSyncId.annotate({ description: "the id that starting the sync answered with (syn_…)" }) },
    query: Input.Struct({}),
    body: noBody,
    headers: noHeaders
  },
  bindTo(StoreSyncJobs, (syncs) => (input, caller) => syncs.get(caller.workspaceId, input.sync_id))
)

export const exportReport = defineOperation(
  {
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
  },
  { path: {}, query: Input.Struct(pageInput), body: noBody, headers: noHeaders },
  // One page of the report's rows. REST streams the whole report instead (its own handler, no
  // paging: ReportsHandlers of @margin/rest), the one operation whose REST form is not this binding.
  bindTo(
    Recommendations,
    (recommendations) => (input, caller) =>
      Effect.map(
        recommendations.list(caller.workspaceId, { status: null, runId: null }, pageRequestOf(input)),
        (page): Page<ReportRow> => ({ items: page.items.map(reportRow), nextCursor: page.nextCursor })
      )
  )
)

export const getWorkspaceStatus = defineOperation(
  {
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
  },
  noInput,
  // account_deletion is the calling user's own: the session's user, or the token's issuer.
  bindTo(WorkspaceStatus, (status) => (_input, caller) => status.read(caller.workspaceId, caller.userId))
)

export const healthz = defineProbe({
  id: "healthz",
  group: "system",
  summary: "Liveness",
  access: null,
  repeat: "read",
  rest: { method: "GET", path: "/healthz", description: "The process is up." },
  mcp: null
})

export const readyz = defineProbe({
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
  undoPriceChange,
  listAlerts,
  getAlert,
  snoozeAlert,
  resolveAlert,
  dismissAlert,
  listCatalogItems,
  importCatalog,
  getCatalogImport,
  startStoreSync,
  getStoreSync,
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
