import { AlertEntity } from "@margin/core/alerts/Alert"
import { RecommendationEntity } from "@margin/core/recommendations/Recommendation"
import type {
  AlertChangedJson,
  AlertJson,
  CatalogImportJson,
  CatalogImportSummaryJson,
  CatalogItemJson,
  IdempotentRepeatJson,
  MoneyJson,
  PriceChangeUndoneJson,
  RecommendationApprovedJson,
  RecommendationChangedJson,
  RecommendationDetailJson,
  RecommendationJson,
  RejectBody,
  ReportJson,
  ReportRowJson,
  RunJson,
  SnoozeBody,
  TriggerRunBody,
  WorkspaceStatusJson,
  WriteBackDetailJson,
  WriteBackStateJson
} from "@margin/edge/wire"
import { alertJson, recommendationJson } from "@margin/edge/wire"

/**
 * The example of each component of the OpenAPI document, by its name: answers captured from a
 * running server (docs/api.md shows the same). Typed by the wire schemas, so that an example
 * cannot drift from its schema unnoticed; DocumentTransform puts them on the components (here
 * rather than as schema annotations: the MCP tools share these schemas, and their listing must not change).
 */

interface List<A> {
  readonly data: ReadonlyArray<A>
  readonly next_cursor: string | null
}

const usd = (amount_minor: number, amount_decimal: string): MoneyJson => ({
  amount_minor,
  currency: "USD",
  amount_decimal
})

const run: RunJson = {
  id: "run_01m812xmykvmv6knr8c3ssh0cv",
  status: "succeeded",
  subset_tags: ["kitchen"],
  trigger: "api",
  requested_by: "token:tok_01m812wcr0x0txndwd9j9pn0rw",
  items_total: 40,
  items_analysed: 40,
  recommendations_count: 40,
  alerts_count: 25,
  error: null,
  created_at: "2026-11-22T07:35:53.043Z",
  started_at: "2026-11-22T07:35:53.058Z",
  finished_at: "2026-11-22T07:35:53.110Z"
}

/** The example the declaration of a recommendation gives (core's Recommendation.ts), on the wire. */
const recommendation: RecommendationJson = recommendationJson(RecommendationEntity.example)

const accepted: RecommendationJson = {
  ...recommendation,
  status: "pending_approval",
  accepted_at: "2026-11-22T07:36:03.869Z",
  accepted_by: "token:tok_01m812wcr0x0txndwd9j9pn0rw",
  updated_at: "2026-11-22T07:36:03.869Z"
}

const approved: RecommendationJson = {
  ...accepted,
  status: "approved",
  approved_at: "2026-11-22T07:36:03.931Z",
  decided_by: "token:tok_01m812wcr8ag73dapwgc29gyth",
  decided_at: "2026-11-22T07:36:03.931Z",
  updated_at: "2026-11-22T07:36:03.931Z"
}

const writeBackState: typeof WriteBackStateJson.Type = { status: "pending", attempts: 0 }

const writeBackDetail: WriteBackDetailJson = {
  status: "applied",
  attempts: 1,
  last_error: null,
  next_attempt_at: null,
  applied_at: "2026-11-22T07:36:03.975Z"
}

/** The example the declaration of an alert gives (core's Alert.ts), on the wire. */
const alert: AlertJson = alertJson(AlertEntity.example)

const catalogImportSummary: CatalogImportSummaryJson = {
  created: 12,
  updated: 215,
  price_changed: 203,
  cost_changed: 14,
  other_changed: 9,
  unchanged: 270,
  stale_price: 3,
  rejected: [{ line: 88, error: 'price: "12,99" is not an amount like 12.99' }],
  rejected_total: 1
}

const catalogImport: CatalogImportJson = {
  id: "imp_01m8134q2c8g4w8x1zq3m5n7p9",
  status: "succeeded",
  format: "csv",
  dry_run: false,
  summary: catalogImportSummary,
  requested_by: "token:tok_01m812wcr8ag73dapwgc29gyth",
  created_at: "2026-11-22T07:40:12.518Z",
  finished_at: "2026-11-22T07:40:13.204Z"
}

const catalogItem: CatalogItemJson = {
  id: "itm_01m812wcjvfrvqkszqwppg2xqa",
  sku: "DEMO-0196",
  title: "White chef knife",
  tags: ["kitchen", "new"],
  currency: "USD",
  price: usd(4199, "41.99"),
  cost: usd(3242, "32.42"),
  compare_at_price: null,
  min_price: null,
  max_price: null,
  inventory: 363,
  units_sold_30d: 164,
  store_product_ref: null,
  store_variant_ref: null,
  competitor_price: null,
  created_at: "2026-11-22T07:35:11.705Z",
  updated_at: "2026-11-22T07:36:03.975Z"
}

const reportRow: ReportRowJson = {
  recommendation_id: "rec_01m812xn02rynaz2v6w2yp0gw5",
  run_id: "run_01m812xmykvmv6knr8c3ssh0cv",
  item_id: "itm_01m812wcjvfrvqkszqwppg2xqa",
  sku: "DEMO-0196",
  currency: "USD",
  current_price: usd(3899, "38.99"),
  recommended_price: usd(4199, "41.99"),
  current_margin: 0.1685,
  projected_margin: 0.2279,
  expected_monthly_impact: usd(49200, "492.00"),
  rule: "step_limited",
  status: "applied",
  decided_by: "token:tok_01m812wcr8ag73dapwgc29gyth",
  decided_at: "2026-11-22T07:36:03.931Z",
  reject_reason: null,
  created_at: "2026-11-22T07:35:53.088Z",
  elasticity: -2.33,
  elasticity_interval: [-2.6, -2.06],
  elasticity_source: "pooled"
}

const workspaceStatus: WorkspaceStatusJson = {
  lifecycle: { state: "active", plan: "max", created_at: "2026-11-22T07:35:11.587Z", trial_ends_at: null },
  usage: {
    period_start: "2026-11-01T00:00:00.000Z",
    period_end: "2026-12-01T00:00:00.000Z",
    runs_used: 2,
    runs_limit: null,
    catalog_items: 200,
    catalog_items_limit: 500000
  },
  support_access: null,
  account_deletion: null
}

const list = <A>(item: A, next_cursor: string): List<A> => ({ data: [item], next_cursor })

const idempotentRepeat: typeof IdempotentRepeatJson.Type = { ok: true, idempotent: true }
const recommendationChanged: typeof RecommendationChangedJson.Type = {
  ok: true,
  idempotent: false,
  recommendation: accepted
}
const recommendationApproved: typeof RecommendationApprovedJson.Type = {
  ok: true,
  idempotent: false,
  recommendation: approved,
  write_back: writeBackState
}
const priceChangeUndone: typeof PriceChangeUndoneJson.Type = {
  ...recommendationApproved,
  recommendation: { ...approved, status: "applied", updated_at: "2026-11-22T09:12:40.210Z" }
}
const recommendationDetail: typeof RecommendationDetailJson.Type = {
  ...approved,
  status: "applied",
  updated_at: "2026-11-22T07:36:03.975Z",
  write_back: writeBackDetail
}
const alertChanged: typeof AlertChangedJson.Type = {
  ok: true,
  idempotent: false,
  alert: {
    ...alert,
    status: "snoozed",
    snoozed_until: "2027-01-15T00:00:00.000Z",
    snooze_reason: "waiting for the supplier",
    updated_at: "2026-11-22T07:36:23.105Z"
  }
}
const report: typeof ReportJson.Type = { data: [reportRow] }

const triggerRun: typeof TriggerRunBody.Encoded = { subset_tags: ["kitchen"] }
const reject: typeof RejectBody.Encoded = { reason: "too steep before the sale" }
const snooze: typeof SnoozeBody.Encoded = { snooze_until: "2027-01-15T00:00:00Z", reason: "waiting for the supplier" }

/** Component name (the schema's identifier) to its example. */
export const componentExamples: Readonly<Record<string, unknown>> = {
  Money: usd(3899, "38.99"),
  Run: run,
  RunList: list(run, "mwrivwer.run_01m812xmykvmv6knr8c3ssh0cv"),
  Recommendation: recommendation,
  RecommendationList: list(recommendation, "mwrivwg0.rec_01m812xn02rynaz2v6w2yp0gw4"),
  RecommendationDetail: recommendationDetail,
  RecommendationChanged: recommendationChanged,
  RecommendationApproved: recommendationApproved,
  PriceChangeUndone: priceChangeUndone,
  WriteBackState: writeBackState,
  WriteBackDetail: writeBackDetail,
  IdempotentRepeat: idempotentRepeat,
  Alert: alert,
  AlertList: list(alert, "mwriv0lb.alt_01m812wcp2a085c4msrpe0vft9"),
  AlertChanged: alertChanged,
  CatalogImport: catalogImport,
  CatalogImportSummary: catalogImportSummary,
  CatalogItem: catalogItem,
  CatalogItemList: list(catalogItem, "mwriv0ih.itm_01m812wcjvfrvqkszqwppg2xqa"),
  ReportRow: reportRow,
  Report: report,
  WorkspaceStatus: workspaceStatus,
  TriggerRun: triggerRun,
  RejectRecommendation: reject,
  SnoozeAlert: snooze
}
