import { assert, expect, layer } from "@effect/vitest"
import { StoreSyncJobs } from "@margin/core/stores/StoreSyncJobs"
import { usd } from "@margin/core/testing/Fixtures"
import { ScriptedStoreCatalog } from "@margin/core/testing/ScriptedStoreCatalog"
import {
  aWorkspaceWithOwner,
  issueToken,
  member,
  seedAlert,
  seedItem,
  seedRecommendation,
  seedRun
} from "@margin/edge/testing/World"
import { type Agent, connect, type ToolOutcome } from "@margin/runtime/testing/AgentClient"
import * as McpTestServer from "@margin/runtime/testing/McpTestServer"
import { Clock, Effect, Schedule } from "effect"
import { initialize, post } from "./RawMcp.ts"

/** A field of a JSON object the test expects. */
const field = (value: unknown, name: string): unknown => {
  assert.isTrue(typeof value === "object" && value !== null, `expected an object, got ${JSON.stringify(value)}`)
  return Reflect.get(Object(value), name)
}

/** An array field of a JSON object the test expects. */
const list = (value: unknown, name: string): ReadonlyArray<unknown> => {
  const found = field(value, name)
  assert.isTrue(Array.isArray(found), `expected an array at ${name}, got ${JSON.stringify(found)}`)
  return Array.isArray(found) ? found : []
}

/** A successful call: structured content, mirrored as JSON text for clients that read only text. */
const ok = (outcome: ToolOutcome): unknown => {
  assert.isFalse(outcome.isError, JSON.stringify(outcome.json))
  assert.deepStrictEqual(outcome.json, outcome.structured)
  return outcome.structured
}

/** A business error: an isError result carrying the REST envelope `{ code, message }`. */
const failed = (outcome: ToolOutcome, code: string) => {
  assert.isTrue(outcome.isError, JSON.stringify(outcome.structured))
  assert.strictEqual(field(outcome.json, "code"), code, JSON.stringify(outcome.json))
  assert.isString(field(outcome.json, "message"))
  return outcome.json
}

const namesOf = (agent: Agent) =>
  Effect.map(
    Effect.promise(() => agent.client.listTools()),
    (listed) => listed.tools.map((tool) => tool.name)
  )

const everyTool = [
  "list_runs",
  "get_run",
  "trigger_run",
  "list_recommendations",
  "get_recommendation",
  "accept_recommendation",
  "dismiss_recommendation",
  "approve_recommendation",
  "reject_recommendation",
  "undo_price_change",
  "list_alerts",
  "get_alert",
  "snooze_alert",
  "resolve_alert",
  "dismiss_alert",
  "list_catalog_items",
  "import_catalog",
  "get_catalog_import",
  "sync_store",
  "get_store_sync",
  "export_report",
  "get_workspace_status"
]

layer(McpTestServer.layer(), { excludeTestServices: true, timeout: "30 seconds" })("MCP tools", (it) => {
  it.effect("initialize negotiates 2025-11-25 with the SDK, and 2025-06-18 / 2025-03-26 when asked", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const agent = yield* connect(owner.token)
      assert.strictEqual(agent.transport.protocolVersion, "2025-11-25")
      assert.deepStrictEqual(agent.client.getServerVersion(), { name: "margin", version: "1.0.0" })
      assert.include(agent.client.getInstructions() ?? "", "approve_recommendation")
      assert.isDefined(agent.client.getServerCapabilities()?.tools)
      for (const version of ["2025-06-18", "2025-03-26"]) {
        const reply = yield* post(initialize(version), { token: owner.token })
        assert.strictEqual(field(field(reply.json, "result"), "protocolVersion"), version, reply.text)
      }
    }).pipe(Effect.scoped)
  )

  it.effect("tools/list: names, schemas and annotations (snapshot)", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const agent = yield* connect(owner.token)
      const listed = yield* Effect.promise(() => agent.client.listTools())
      assert.deepStrictEqual(
        listed.tools.map((tool) => tool.name),
        everyTool
      )
      // The hints, as a table a reviewer can read: readOnly, destructive, idempotent, openWorld.
      const hints = Object.fromEntries(
        listed.tools.map((tool) => [
          tool.name,
          [
            tool.annotations?.readOnlyHint,
            tool.annotations?.destructiveHint,
            tool.annotations?.idempotentHint,
            tool.annotations?.openWorldHint
          ].join(" ")
        ])
      )
      const read = "true false true false"
      assert.deepStrictEqual(hints, {
        list_runs: read,
        get_run: read,
        trigger_run: "false false false false",
        list_recommendations: read,
        get_recommendation: read,
        accept_recommendation: "false false true false",
        dismiss_recommendation: "false true true false",
        approve_recommendation: "false true true true",
        reject_recommendation: "false true false false",
        undo_price_change: "false true false true",
        list_alerts: read,
        get_alert: read,
        snooze_alert: "false false true false",
        resolve_alert: "false true true false",
        dismiss_alert: "false true true false",
        list_catalog_items: read,
        import_catalog: "false true false false",
        get_catalog_import: read,
        sync_store: "false true false true",
        get_store_sync: read,
        export_report: read,
        get_workspace_status: read
      })
      for (const tool of listed.tools) {
        assert.strictEqual(tool.inputSchema.type, "object", tool.name)
        assert.strictEqual(tool.outputSchema?.type, "object", tool.name)
        assert.isString(tool.title, tool.name)
        if (tool.name.startsWith("list_") || tool.name === "export_report") {
          assert.includeMembers(Object.keys(tool.inputSchema.properties ?? {}), ["limit", "cursor"], tool.name)
        }
      }
      yield* Effect.promise(() =>
        expect(`${JSON.stringify(listed.tools, null, 2)}\n`).toMatchFileSnapshot("./__snapshots__/tools-list.json")
      )
    }).pipe(Effect.scoped)
  )

  it.effect("a tool whose scope the token lacks is hidden from tools/list; a call is insufficient_scope", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const reader = yield* issueToken(workspace, owner.user, { scopes: ["runs:read", "alerts:read"] })
      const agent = yield* connect(reader.secret)
      assert.deepStrictEqual(yield* namesOf(agent), ["list_runs", "get_run", "list_alerts", "get_alert"])
      const refused = failed(yield* agent.call("trigger_run", { subset_tags: [] }), "insufficient_scope")
      assert.strictEqual(field(refused, "required"), "runs:trigger")
      const accept = failed(
        yield* agent.call("accept_recommendation", { recommendation_id: "rec_x" }),
        "insufficient_scope"
      )
      assert.strictEqual(field(accept, "required"), "recommendations:write")
      const none = yield* issueToken(workspace, owner.user, { scopes: [] })
      assert.deepStrictEqual(yield* namesOf(yield* connect(none.secret)), [])
    }).pipe(Effect.scoped)
  )

  it.effect("runs: list (paged), get, trigger (executed in the background), not_found, email_not_confirmed", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      yield* seedItem(workspace, { price: 1000, cost: 900 })
      const older = yield* seedRun(workspace, { status: "succeeded" })
      yield* Effect.sleep("2 millis")
      const newer = yield* seedRun(workspace, { status: "failed" })
      const agent = yield* connect(owner.token)

      const first = ok(yield* agent.call("list_runs", { limit: 1 }))
      assert.deepStrictEqual(
        list(first, "data").map((run) => field(run, "id")),
        [newer.id]
      )
      const cursor = field(first, "next_cursor")
      assert.isString(cursor)
      const second = ok(yield* agent.call("list_runs", { limit: 1, cursor }))
      assert.deepStrictEqual(
        list(second, "data").map((run) => field(run, "id")),
        [older.id]
      )
      const failedOnly = ok(yield* agent.call("list_runs", { status: "failed" }))
      assert.strictEqual(list(failedOnly, "data").length, 1)

      assert.strictEqual(field(ok(yield* agent.call("get_run", { run_id: older.id })), "status"), "succeeded")
      failed(yield* agent.call("get_run", { run_id: "run_missing" }), "not_found")

      const queued = ok(yield* agent.call("trigger_run", { subset_tags: [] }))
      assert.strictEqual(field(queued, "status"), "queued")
      assert.strictEqual(field(queued, "trigger"), "mcp")
      // Until the run has ended, however long a loaded machine takes (the test's timeout bounds it).
      const status = yield* agent.call("get_run", { run_id: field(queued, "id") }).pipe(
        Effect.map((outcome) => field(ok(outcome), "status")),
        Effect.repeat({
          until: (current) => current !== "queued" && current !== "running",
          schedule: Schedule.spaced("20 millis")
        })
      )
      assert.strictEqual(status, "succeeded")

      // idempotency_key: a repeat answers the run the first call queued; other tags are refused.
      const keyed = ok(yield* agent.call("trigger_run", { subset_tags: ["mcp-key"], idempotency_key: "agent-1" }))
      const repeated = ok(yield* agent.call("trigger_run", { subset_tags: ["mcp-key"], idempotency_key: "agent-1" }))
      assert.strictEqual(field(repeated, "id"), field(keyed, "id"))
      failed(
        yield* agent.call("trigger_run", { subset_tags: ["other"], idempotency_key: "agent-1" }),
        "validation_error"
      )

      const unconfirmed = yield* member(workspace, "owner", { emailConfirmed: false })
      const other = yield* connect(unconfirmed.token)
      failed(yield* other.call("trigger_run"), "email_not_confirmed")
    }).pipe(Effect.scoped)
  )

  it.effect("recommendations: list, get, accept, dismiss, approve with write-back, reject, and their errors", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const agent = yield* connect(owner.token)
      const fresh = yield* seedRecommendation(workspace)
      const listed = ok(yield* agent.call("list_recommendations", { status: "new" }))
      assert.deepStrictEqual(
        list(listed, "data").map((r) => field(r, "id")),
        [fresh.id]
      )
      const got = ok(yield* agent.call("get_recommendation", { recommendation_id: fresh.id }))
      assert.deepStrictEqual(
        [field(got, "elasticity"), field(got, "elasticity_interval"), field(got, "elasticity_source")],
        [fresh.elasticity, [...fresh.elasticityInterval], fresh.elasticitySource]
      )
      assert.deepStrictEqual(field(got, "current_price"), {
        amount_minor: fresh.currentPrice,
        currency: fresh.currency,
        amount_decimal: field(field(got, "current_price"), "amount_decimal")
      })

      // approve from new: a conflict; accept, then accept again: idempotent.
      failed(yield* agent.call("approve_recommendation", { recommendation_id: fresh.id }), "conflict")
      const accepted = ok(yield* agent.call("accept_recommendation", { recommendation_id: fresh.id }))
      assert.strictEqual(field(accepted, "idempotent"), false)
      assert.strictEqual(field(field(accepted, "recommendation"), "status"), "pending_approval")
      const repeat = ok(yield* agent.call("accept_recommendation", { recommendation_id: fresh.id }))
      assert.strictEqual(field(repeat, "idempotent"), true)

      // an analyst may accept but not approve.
      const analyst = yield* member(workspace, "analyst")
      const analystAgent = yield* connect(analyst.token)
      failed(yield* analystAgent.call("approve_recommendation", { recommendation_id: fresh.id }), "forbidden_role")
      failed(
        yield* analystAgent.call("reject_recommendation", { recommendation_id: fresh.id, reason: "no" }),
        "forbidden_role"
      )

      const approved = ok(yield* agent.call("approve_recommendation", { recommendation_id: fresh.id }))
      assert.strictEqual(field(approved, "idempotent"), false)
      assert.deepStrictEqual(field(approved, "write_back"), { status: "applied", attempts: 1 })
      assert.strictEqual(field(field(approved, "recommendation"), "status"), "applied")
      const again = ok(yield* agent.call("approve_recommendation", { recommendation_id: fresh.id }))
      assert.strictEqual(field(again, "idempotent"), true)
      assert.isNull(field(again, "write_back"))

      const toReject = yield* seedRecommendation(workspace, { status: "pending_approval" })
      const rejected = ok(
        yield* agent.call("reject_recommendation", { recommendation_id: toReject.id, reason: "too steep" })
      )
      assert.strictEqual(field(field(rejected, "recommendation"), "reject_reason"), "too steep")
      failed(
        yield* agent.call("reject_recommendation", { recommendation_id: toReject.id, reason: "again" }),
        "conflict"
      )

      const toDismiss = yield* seedRecommendation(workspace)
      const dismissed = ok(yield* agent.call("dismiss_recommendation", { recommendation_id: toDismiss.id }))
      assert.strictEqual(field(field(dismissed, "recommendation"), "status"), "dismissed")
      assert.strictEqual(
        field(ok(yield* agent.call("dismiss_recommendation", { recommendation_id: toDismiss.id })), "idempotent"),
        true
      )
      failed(yield* agent.call("accept_recommendation", { recommendation_id: toDismiss.id }), "conflict")

      // Another workspace's recommendation does not exist for this token.
      const elsewhere = yield* aWorkspaceWithOwner()
      const foreign = yield* seedRecommendation(elsewhere.workspace)
      failed(yield* agent.call("get_recommendation", { recommendation_id: foreign.id }), "not_found")
      failed(yield* agent.call("accept_recommendation", { recommendation_id: foreign.id }), "not_found")
    }).pipe(Effect.scoped)
  )

  it.effect("approve needs a connected store: no_commerce_integration", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner({ store: false })
      const pending = yield* seedRecommendation(workspace, { status: "pending_approval" })
      const agent = yield* connect(owner.token)
      failed(yield* agent.call("approve_recommendation", { recommendation_id: pending.id }), "no_commerce_integration")
    }).pipe(Effect.scoped)
  )

  it.effect("alerts: list, get, snooze (idempotent repeat, past is validation_error), resolve, dismiss", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const agent = yield* connect(owner.token)
      const first = yield* seedAlert(workspace)
      const second = yield* seedAlert(workspace, { kind: "negative_margin", severity: "critical" })
      const listed = ok(yield* agent.call("list_alerts", { kind: "negative_margin" }))
      assert.deepStrictEqual(
        list(listed, "data").map((a) => field(a, "id")),
        [second.id]
      )
      assert.strictEqual(field(ok(yield* agent.call("get_alert", { alert_id: first.id })), "status"), "open")
      failed(yield* agent.call("get_alert", { alert_id: "alt_missing" }), "not_found")

      const now = yield* Clock.currentTimeMillis
      const until = new Date(now + 3_600_000).toISOString()
      const snoozed = ok(
        yield* agent.call("snooze_alert", { alert_id: first.id, snooze_until: until, reason: "later" })
      )
      assert.strictEqual(field(field(snoozed, "alert"), "status"), "snoozed")
      const repeat = ok(yield* agent.call("snooze_alert", { alert_id: first.id, snooze_until: until, reason: "later" }))
      assert.strictEqual(field(repeat, "idempotent"), true)
      const past = new Date(now - 3_600_000).toISOString()
      const invalid = failed(
        yield* agent.call("snooze_alert", { alert_id: first.id, snooze_until: past, reason: "x" }),
        "validation_error"
      )
      assert.deepStrictEqual(
        list(invalid, "issues").map((issue) => field(issue, "path")),
        ["snooze_until"]
      )

      const resolved = ok(yield* agent.call("resolve_alert", { alert_id: first.id }))
      assert.strictEqual(field(field(resolved, "alert"), "status"), "resolved")
      assert.strictEqual(field(ok(yield* agent.call("resolve_alert", { alert_id: first.id })), "idempotent"), true)
      failed(yield* agent.call("dismiss_alert", { alert_id: first.id }), "conflict")
      const dismissed = ok(yield* agent.call("dismiss_alert", { alert_id: second.id }))
      assert.strictEqual(field(field(dismissed, "alert"), "status"), "dismissed")
    }).pipe(Effect.scoped)
  )

  it.effect("an argument holding a NUL is refused naming it, never the database's unavailable", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const agent = yield* connect(owner.token)
      yield* seedAlert(workspace)
      const paths = (outcome: ToolOutcome) =>
        list(failed(outcome, "validation_error"), "issues").map((issue) => field(issue, "path"))
      assert.deepStrictEqual(paths(yield* agent.call("get_alert", { alert_id: "alt_\u0000x" })), ["alert_id"])
      // A filter's NUL is refused by the operation's declared input, at both doors (REST: 422).
      const filtered = yield* agent.call("list_recommendations", { run_id: "run\u0000" })
      assert.isTrue(filtered.isError)
      assert.match(String(filtered.json), /must not contain the NUL character[\s\S]*run_id/)
    }).pipe(Effect.scoped)
  )

  it.effect("an argument holding a lone surrogate is a validation_error naming it, never stored as U+FFFD", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const agent = yield* connect(owner.token)
      const pending = yield* seedRecommendation(workspace, { status: "pending_approval" })
      const paths = (outcome: ToolOutcome) =>
        list(failed(outcome, "validation_error"), "issues").map((issue) => field(issue, "path"))
      assert.deepStrictEqual(
        paths(
          yield* agent.call("reject_recommendation", { recommendation_id: pending.id, reason: "too \ud800 steep" })
        ),
        ["reason"]
      )
      assert.deepStrictEqual(paths(yield* agent.call("trigger_run", { subset_tags: ["ok", "\udc00"] })), [
        "subset_tags.1"
      ])
      // A surrogate pair is one character: fine.
      const rejected = ok(
        yield* agent.call("reject_recommendation", { recommendation_id: pending.id, reason: "too steep \ud83d\ude00" })
      )
      assert.strictEqual(field(field(rejected, "recommendation"), "reject_reason"), "too steep \ud83d\ude00")
    }).pipe(Effect.scoped)
  )

  it.effect("catalog items and the report export, paged with limit and cursor", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const agent = yield* connect(owner.token)
      const items = []
      for (let n = 0; n < 3; n++) {
        items.push(yield* seedItem(workspace, { tags: n === 0 ? ["summer"] : [] }))
        yield* Effect.sleep("2 millis")
      }
      const page = ok(yield* agent.call("list_catalog_items", { limit: 2 }))
      const rest = ok(yield* agent.call("list_catalog_items", { limit: 2, cursor: field(page, "next_cursor") }))
      assert.deepStrictEqual(
        [...list(page, "data"), ...list(rest, "data")].map((item) => field(item, "id")),
        items.map((item) => item.id).reverse()
      )
      assert.isNull(field(rest, "next_cursor"))
      const summer = ok(yield* agent.call("list_catalog_items", { tag: "summer" }))
      assert.strictEqual(list(summer, "data").length, 1)

      const a = yield* seedRecommendation(workspace)
      yield* Effect.sleep("2 millis")
      const b = yield* seedRecommendation(workspace, { status: "rejected", rejectReason: "no" })
      const report = ok(yield* agent.call("export_report", { limit: 1 }))
      const [row] = list(report, "data")
      assert.strictEqual(field(row, "recommendation_id"), b.id)
      assert.strictEqual(field(row, "status"), "rejected")
      assert.strictEqual(field(row, "reject_reason"), "no")
      assert.deepStrictEqual(
        [field(row, "elasticity"), field(row, "elasticity_interval"), field(row, "elasticity_source")],
        [b.elasticity, [...b.elasticityInterval], b.elasticitySource]
      )
      assert.strictEqual(field(field(row, "current_price"), "amount_minor"), b.currentPrice)
      const next = ok(yield* agent.call("export_report", { limit: 1, cursor: field(report, "next_cursor") }))
      assert.deepStrictEqual(
        list(next, "data").map((r) => field(r, "recommendation_id")),
        [a.id]
      )
      assert.isNull(field(next, "next_cursor"))
    }).pipe(Effect.scoped)
  )

  it.effect("catalog imports: a partial CSV keeps what it does not mention, a dry run writes nothing, read back", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const item = yield* seedItem(workspace, { sku: "M-1", price: 1000, cost: 550, inventory: 7 })
      const agent = yield* connect(owner.token)
      const content = "sku,price,cost\nM-1,12.50,\nM-2,1.00,\n"
      const dry = ok(yield* agent.call("import_catalog", { format: "csv", content, dry_run: true }))
      assert.deepStrictEqual([field(dry, "dry_run"), field(field(dry, "summary"), "price_changed")], [true, 1])
      const unchanged = ok(yield* agent.call("list_catalog_items", {}))
      assert.strictEqual(field(field(list(unchanged, "data")[0], "price"), "amount_minor"), item.price)
      const done = ok(yield* agent.call("import_catalog", { format: "csv", content }))
      assert.deepStrictEqual(field(done, "summary"), {
        created: 0,
        updated: 1,
        price_changed: 1,
        cost_changed: 0,
        other_changed: 0,
        unchanged: 0,
        stale_price: 0,
        rejected: [{ line: 3, error: "sku M-2 is not in the catalog: a new item needs title, currency" }],
        rejected_total: 1
      })
      const [after] = list(ok(yield* agent.call("list_catalog_items", {})), "data")
      assert.deepStrictEqual(
        [
          field(field(after, "price"), "amount_minor"),
          field(field(after, "cost"), "amount_minor"),
          field(after, "inventory")
        ],
        [1250, 550, 7]
      )
      assert.deepStrictEqual(ok(yield* agent.call("get_catalog_import", { import_id: field(done, "id") })), done)
      failed(yield* agent.call("get_catalog_import", { import_id: "imp_missing" }), "not_found")
      failed(yield* agent.call("import_catalog", { format: "csv", content: "title\nMug\n" }), "validation_error")
      // A token without catalog:write does not see the tool, and a call is insufficient_scope.
      const reader = yield* issueToken(workspace, owner.user, { scopes: ["catalog:read"] })
      const readerAgent = yield* connect(reader.secret)
      const names = yield* namesOf(readerAgent)
      assert.deepStrictEqual([names.includes("import_catalog"), names.includes("get_catalog_import")], [false, true])
      failed(yield* readerAgent.call("import_catalog", { format: "csv", content }), "insufficient_scope")
    }).pipe(Effect.scoped)
  )

  it.effect("store syncs: sync_store queues one, a worker does it, get_store_sync reads its summary", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      yield* ScriptedStoreCatalog.use((store) =>
        store.put(workspace.id, [
          { updatedAt: 0, variant: { sku: "S-1", variantRef: "S-1", title: "Mug", currency: usd, price: "9.50" } }
        ])
      )
      const agent = yield* connect(owner.token)
      const queued = ok(yield* agent.call("sync_store", {}))
      assert.deepStrictEqual(
        [field(queued, "status"), field(queued, "trigger"), field(queued, "summary")],
        ["queued", "manual", null]
      )
      // Asked again while it waits: the same sync.
      assert.strictEqual(field(ok(yield* agent.call("sync_store", {})), "id"), field(queued, "id"))
      yield* StoreSyncJobs.use((syncs) => syncs.executeNext("test-worker"))
      const done = ok(yield* agent.call("get_store_sync", { sync_id: field(queued, "id") }))
      assert.deepStrictEqual(
        [field(done, "status"), field(done, "read"), field(field(done, "summary"), "created"), field(done, "error")],
        ["succeeded", "full", 1, null]
      )
      failed(yield* agent.call("get_store_sync", { sync_id: "syn_missing" }), "not_found")
      // A workspace without a store cannot sync.
      const storeless = yield* aWorkspaceWithOwner({ store: false })
      failed(yield* (yield* connect(storeless.owner.token)).call("sync_store", {}), "no_commerce_integration")
      // A token without catalog:write does not see the tool.
      const reader = yield* issueToken(workspace, owner.user, { scopes: ["catalog:read"] })
      const names = yield* namesOf(yield* connect(reader.secret))
      assert.deepStrictEqual([names.includes("sync_store"), names.includes("get_store_sync")], [false, true])
    }).pipe(Effect.scoped)
  )

  it.effect("workspace status", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner({ plan: "enterprise" })
      const agent = yield* connect(owner.token)
      const status = ok(yield* agent.call("get_workspace_status"))
      assert.strictEqual(field(field(status, "lifecycle"), "plan"), "enterprise")
      assert.isNull(field(status, "support_access"))
      assert.isNull(field(status, "account_deletion"))
      // Unknown argument fields are ignored, as for every tool (docs/mcp.md) and as REST ignores them.
      const withUnknown = ok(yield* agent.call("get_workspace_status", { unknown_field: 1 }))
      assert.deepStrictEqual(withUnknown, status)
    }).pipe(Effect.scoped)
  )

  it.effect("arguments that fail their schema are refused as an error result naming the fields", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const agent = yield* connect(owner.token)
      const refused = yield* agent.call("list_runs", { limit: 0, cursor: "not-a-cursor" })
      assert.isTrue(refused.isError)
      assert.match(String(refused.json), /limit/)
      assert.match(String(refused.json), /cursor/)
      const missing = yield* agent.call("reject_recommendation", { recommendation_id: "rec_x" })
      assert.isTrue(missing.isError)
      assert.match(String(missing.json), /reason/)
    }).pipe(Effect.scoped)
  )
})
