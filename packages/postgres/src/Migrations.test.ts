import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { insertWorkspace } from "../test/WorkspaceRow.ts"
import * as Migrations from "./Migrations.ts"
import { statements as pricingObjective } from "./migrations/0011_pricing_objective.ts"
import { TestDatabase } from "./testing/TestDatabase.ts"

// On the embedded PostgreSQL, or on DATABASE_URL's server when it is set.

const tables = [
  "alerts",
  "api_tokens",
  "audit_events",
  "catalog_items",
  "deletion_requests",
  "identity_keys",
  "memberships",
  "oauth_authorization_codes",
  "oauth_clients",
  "oauth_grants",
  "oauth_login_links",
  "oauth_tokens",
  "rate_budget_windows",
  "recommendations",
  "runs",
  "sandbox_store_variants",
  "sandbox_store_writes",
  "store_connections",
  "support_sessions",
  "users",
  "workspaces",
  "write_backs"
]

/** The error a statement fails with, classified by the driver. */
const failure = <A, R>(effect: Effect.Effect<A, SqlError, R>) =>
  Effect.flip(effect).pipe(
    Effect.map((error) => ({
      reason: error.reason._tag,
      message: error.reason.cause instanceof Error ? error.reason.cause.message : ""
    }))
  )

const item = (sql: SqlClient.SqlClient, workspaceId: string, id: string, sku: string) =>
  sql`INSERT INTO catalog_items ${sql.insert({
    id,
    workspaceId,
    sku,
    title: `Item ${sku}`,
    tags: ["summer", "shoes"],
    currency: "EUR",
    price: 1999,
    cost: 1200
  })}`

const alert = (sql: SqlClient.SqlClient, workspaceId: string, id: string, itemId: string | null, status: string) =>
  sql`INSERT INTO alerts ${sql.insert({
    id,
    workspaceId,
    itemId,
    kind: "missing_cost",
    severity: "warning",
    message: "no cost",
    status,
    snoozedUntil: status === "snoozed" ? new Date(Date.UTC(2030, 0, 1)) : null
  })}`

layer(TestDatabase.layer, { timeout: "3 minutes" })("the schema", (it) => {
  it.effect("has every table, and a second run applies nothing", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ readonly tableName: string }>`
        SELECT table_name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_name <> 'effect_sql_migrations'`
      const present = new Set(rows.map((row) => row.tableName))
      for (const table of tables) assert.isTrue(present.has(table), `table ${table}`)
      assert.deepStrictEqual(yield* Migrations.run, [])
    })
  )

  it.effect("rejects a status outside its CHECK", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rejected = yield* failure(insertWorkspace("ws_check", { plan: "platinum" }))
      assert.strictEqual(rejected.reason, "ConstraintError")
      assert.include(rejected.message, "workspaces_plan_check")
      yield* insertWorkspace("ws_check")
      const status = yield* failure(sql`UPDATE workspaces SET lifecycle_state = 'deleted' WHERE id = 'ws_check'`)
      assert.include(status.message, "workspaces_lifecycle_state_check")
    })
  )

  it.effect("rejects a row whose workspace does not exist (foreign key)", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rejected = yield* failure(item(sql, "ws_missing", "itm_orphan", "SKU-1"))
      assert.strictEqual(rejected.reason, "ConstraintError")
      assert.include(rejected.message, "catalog_items_workspace_id_fkey")
    })
  )

  it.effect("keeps a sku unique within a workspace, not across workspaces", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* insertWorkspace("ws_sku_a")
      yield* insertWorkspace("ws_sku_b")
      yield* item(sql, "ws_sku_a", "itm_sku_1", "SKU-1")
      yield* item(sql, "ws_sku_b", "itm_sku_2", "SKU-1")
      const rejected = yield* Effect.flip(item(sql, "ws_sku_a", "itm_sku_3", "SKU-1"))
      assert.strictEqual(rejected.reason._tag, "UniqueViolation")
      if (rejected.reason._tag === "UniqueViolation") {
        assert.strictEqual(rejected.reason.constraint, "catalog_items_workspace_sku_key")
      }
    })
  )

  it.effect("indexes catalog items once per use: workspace and id, newest first, sku, tags (0007)", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const indexes = yield* sql<{ readonly indexname: string; readonly indexdef: string }>`
        SELECT indexname, indexdef FROM pg_indexes
        WHERE schemaname = current_schema() AND tablename = 'catalog_items' ORDER BY indexname`
      assert.deepStrictEqual(
        indexes.map((index) => [index.indexname, index.indexdef.replace(/^.* USING /, "")]),
        [
          ["catalog_items_created_idx", "btree (workspace_id, created_at, id)"],
          ["catalog_items_pkey", "btree (workspace_id, id)"],
          ["catalog_items_tags_idx", "gin (tags)"],
          ["catalog_items_with_history_idx", "btree (workspace_id, id) WHERE (price_history <> '[]'::jsonb)"],
          ["catalog_items_workspace_sku_key", "btree (workspace_id, sku)"]
        ]
      )
      const [sku] = yield* sql<{ readonly collationName: string | null }>`
        SELECT collation_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = 'catalog_items' AND column_name = 'sku'`
      assert.strictEqual(sku?.collationName, "C")
    })
  )

  it.effect(
    "0011: a workspace's objective defaults to profit, and the policy and source columns keep to their CHECKs",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* insertWorkspace("ws_objective")
        const [policy] = yield* sql<{
          readonly objective: string
          readonly defaultElasticity: number
          readonly maxPremiumOverCompetitor: number | null
        }>`SELECT objective, default_elasticity, max_premium_over_competitor FROM workspaces WHERE id = 'ws_objective'`
        assert.deepStrictEqual(policy, { objective: "profit", defaultElasticity: -1.5, maxPremiumOverCompetitor: null })
        const set = (column: string, value: string | number) =>
          failure(sql`UPDATE workspaces SET ${sql.update({ [column]: value })} WHERE id = 'ws_objective'`)
        assert.include((yield* set("objective", "revenue")).message, "workspaces_objective_check")
        assert.include((yield* set("default_elasticity", 0)).message, "workspaces_default_elasticity_check")
        assert.include((yield* set("max_premium_over_competitor", -0.1)).message, "workspaces_max_premium_check")
        yield* item(sql, "ws_objective", "itm_competitor", "SKU-C")
        const competitor = yield* failure(
          sql`UPDATE catalog_items SET competitor_price = -1 WHERE id = 'itm_competitor'`
        )
        assert.strictEqual(competitor.reason, "ConstraintError")
        const [sources] = yield* sql<{ readonly definition: string }>`
        SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint
        WHERE conname = 'recommendations_elasticity_source_check'`
        assert.include(sources?.definition ?? "", "'pooled'")
        assert.notInclude(sources?.definition ?? "", "'arc'")
      })
  )

  it.effect("0014: a workspace's materiality floor defaults to 1 % and keeps to its CHECK", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* insertWorkspace("ws_gain")
      const [row] = yield* sql<{ readonly minExpectedGain: number }>`
        SELECT min_expected_gain FROM workspaces WHERE id = 'ws_gain'`
      assert.deepStrictEqual(row, { minExpectedGain: 0.01 })
      for (const value of [-0.01, 1]) {
        const error = yield* failure(sql`UPDATE workspaces SET min_expected_gain = ${value} WHERE id = 'ws_gain'`)
        assert.include(error.message, "workspaces_min_expected_gain_check")
      }
    })
  )

  it.effect("0011 maps the elasticity sources of stored recommendations and gives them a point interval", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* insertWorkspace("ws_sources")
      yield* sql`INSERT INTO runs ${sql.insert({ id: "run_sources", workspaceId: "ws_sources", status: "succeeded", trigger: "cli" })}`
      // The rows as the first version stored them: its constraints back, its values, no interval yet.
      yield* sql.unsafe(`ALTER TABLE recommendations
        DROP CONSTRAINT recommendations_elasticity_source_check, DROP CONSTRAINT recommendations_rule_check`)
      const old = (id: string, source: string, elasticity: number) =>
        Effect.andThen(
          item(sql, "ws_sources", `itm_${id}`, `SKU-${id}`),
          sql`INSERT INTO recommendations ${sql.insert({
            id,
            workspaceId: "ws_sources",
            runId: "run_sources",
            itemId: `itm_${id}`,
            sku: `SKU-${id}`,
            currency: "EUR",
            currentPrice: 1000,
            recommendedPrice: 1099,
            rule: "below_target_margin",
            explanation: "why",
            elasticity,
            elasticitySource: source,
            expectedMonthlyImpact: 100,
            status: "new"
          })}`
        )
      yield* old("rec_zero", "assumed_zero", 0)
      yield* old("rec_arc", "arc", -2.33)
      yield* old("rec_log", "log_log", -1.8)
      // The migration's own statements: the mapping, then the constraints.
      for (const statement of pricingObjective.slice(-2)) yield* sql.unsafe(statement)
      const rows = yield* sql<{
        readonly id: string
        readonly elasticitySource: string
        readonly elasticityLow: number
        readonly elasticityHigh: number
      }>`SELECT id, elasticity_source, elasticity_low, elasticity_high FROM recommendations
        WHERE workspace_id = 'ws_sources' ORDER BY id`
      assert.deepStrictEqual(
        rows.map((row) => [row.id, row.elasticitySource, row.elasticityLow, row.elasticityHigh]),
        [
          ["rec_arc", "item", -2.33, -2.33],
          ["rec_log", "item", -1.8, -1.8],
          ["rec_zero", "prior", 0, 0]
        ]
      )
    })
  )

  it.effect("allows one standing alert per subject, item-less subjects included", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* insertWorkspace("ws_alerts")
      yield* item(sql, "ws_alerts", "itm_alerts", "SKU-A")
      yield* alert(sql, "ws_alerts", "alt_1", "itm_alerts", "open")
      const duplicate = yield* Effect.flip(alert(sql, "ws_alerts", "alt_2", "itm_alerts", "snoozed"))
      assert.strictEqual(duplicate.reason._tag, "UniqueViolation")
      yield* alert(sql, "ws_alerts", "alt_3", "itm_alerts", "resolved")
      yield* alert(sql, "ws_alerts", "alt_4", null, "open")
      const itemless = yield* Effect.flip(alert(sql, "ws_alerts", "alt_5", null, "open"))
      assert.strictEqual(itemless.reason._tag, "UniqueViolation")
    })
  )

  it.effect("refuses an alert about an item of another workspace or of none (item key, 0009)", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* insertWorkspace("ws_keys_a")
      yield* insertWorkspace("ws_keys_b")
      yield* item(sql, "ws_keys_a", "itm_keys_a", "SKU-K")
      for (const [workspace, itemId] of [
        ["ws_keys_b", "itm_keys_a"],
        ["ws_keys_a", "itm_keys_missing"]
      ] as const) {
        const rejected = yield* failure(alert(sql, workspace, `alt_${workspace}_${itemId}`, itemId, "open"))
        assert.strictEqual(rejected.reason, "ConstraintError")
        assert.include(rejected.message, "alerts_item_fkey")
      }
      yield* alert(sql, "ws_keys_a", "alt_keys_ok", "itm_keys_a", "open")
    })
  )

  it.effect("returns bigint money as numbers, tags as arrays, and sorts ids byte-wise", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* insertWorkspace("ws_types")
      yield* item(sql, "ws_types", "itm_b", "SKU-B")
      yield* item(sql, "ws_types", "itm_B", "SKU-C")
      yield* item(sql, "ws_types", "itm_a_", "SKU-D")
      yield* sql`UPDATE catalog_items SET price = ${2 ** 40} WHERE id = 'itm_b'`
      const rows = yield* sql<{ readonly id: string; readonly price: number; readonly tags: ReadonlyArray<string> }>`
        SELECT id, price, tags FROM catalog_items WHERE workspace_id = 'ws_types' ORDER BY id`
      assert.deepStrictEqual(
        rows.map((row) => row.id),
        ["itm_B", "itm_a_", "itm_b"]
      )
      assert.strictEqual(rows[2]?.price, 2 ** 40)
      assert.deepStrictEqual(rows[0]?.tags, ["summer", "shoes"])
      const [count] = yield* sql<{
        readonly n: number
      }>`SELECT count(*) AS n FROM catalog_items WHERE 'shoes' = ANY (tags)`
      assert.strictEqual(typeof count?.n, "number")
    })
  )

  it.effect("reset empties every table but keeps the schema", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const database = yield* TestDatabase
      yield* insertWorkspace("ws_reset")
      yield* database.reset
      const [row] = yield* sql<{ readonly n: number }>`SELECT count(*) AS n FROM workspaces`
      assert.strictEqual(row?.n, 0)
      assert.deepStrictEqual(yield* Migrations.run, [])
    })
  )
})
