import { assert, layer } from "@effect/vitest"
import { UserId } from "@margin/core/kernel/Ids"
import { SessionSigner } from "@margin/edge/auth"
import { Readiness } from "@margin/edge/telemetry"
import {
  aWorkspaceWithOwner,
  importItem,
  member,
  recommendationFor,
  seedAlert,
  seedRun,
  session
} from "@margin/edge/testing/World"
import * as PgTestAdapters from "@margin/postgres/testing/PgTestAdapters"
import { connect } from "@margin/runtime/testing/AgentClient"
import * as PgServerPorts from "@margin/runtime/testing/PgServerPorts"
import { bodyOf, call, expectError, layerOn } from "@margin/runtime/testing/TestServer"
import { Effect } from "effect"

/**
 * The main flows again, over the PostgreSQL adapters (the embedded PostgreSQL by default,
 * DATABASE_URL's server when it is set), the store router and the database rate budget: what the server runs.
 */

const count = (body: Readonly<Record<string, unknown>>): number => (Array.isArray(body.data) ? body.data.length : -1)

layer(layerOn(PgServerPorts.layer, { readiness: Readiness.layerSql }), {
  excludeTestServices: true,
  timeout: "2 minutes"
})(`REST v1 on the database adapters (${PgTestAdapters.backend})`, (it) => {
  it.effect("readyz asks the database", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual((yield* call("GET", "/readyz")).json, { status: "ready" })
    })
  )

  it.effect("lists page newest first with a cursor; filters; the report streams from the database", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      for (let n = 0; n < 5; n++) yield* seedRun(workspace, { createdAt: 1_000 + n })
      const first = bodyOf(yield* call("GET", "/api/v1/runs?limit=2", { token: owner.token }))
      assert.strictEqual(count(first), 2)
      const second = bodyOf(
        yield* call("GET", `/api/v1/runs?limit=2&cursor=${String(first.next_cursor)}`, { token: owner.token })
      )
      const third = bodyOf(
        yield* call("GET", `/api/v1/runs?limit=2&cursor=${String(second.next_cursor)}`, { token: owner.token })
      )
      assert.deepStrictEqual([count(first), count(second), count(third)], [2, 2, 1])
      assert.strictEqual(third.next_cursor, null)

      const item = yield* importItem(workspace, { tags: ["summer"] })
      for (let n = 0; n < 3; n++) yield* recommendationFor(workspace, item)
      const fresh = bodyOf(yield* call("GET", "/api/v1/recommendations?status=new", { token: owner.token }))
      assert.strictEqual(count(fresh), 3)
      assert.strictEqual(
        count(bodyOf(yield* call("GET", "/api/v1/catalog/items?tag=summer", { token: owner.token }))),
        1
      )
      const report = yield* call("GET", "/api/v1/reports/export", { token: owner.token })
      assert.strictEqual(report.text.split("\r\n").filter((line) => line !== "").length, 4)
    })
  )

  it.effect("accept, approve, undo and reject move recommendations; repeats are idempotent or conflicts", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const item = yield* importItem(workspace)
      const fresh = yield* recommendationFor(workspace, item)
      const accept = `/api/v1/recommendations/${fresh.id}/accept`
      assert.strictEqual(
        Object(bodyOf(yield* call("POST", accept, { token: owner.token })).recommendation).status,
        "pending_approval"
      )
      assert.deepStrictEqual((yield* call("POST", accept, { token: owner.token })).json, {
        ok: true,
        idempotent: true
      })

      const approve = `/api/v1/recommendations/${fresh.id}/approve`
      const approved = bodyOf(yield* call("POST", approve, { token: owner.token }))
      assert.strictEqual(approved.idempotent, false)
      // An item imported after the store was connected: the sandbox, like the merchant's store it
      // plays, has it at its catalog price, so the approval writes back (issue 29, item 12).
      assert.strictEqual(Object(approved.write_back).status, "applied")
      assert.deepStrictEqual((yield* call("POST", approve, { token: owner.token })).json, {
        ok: true,
        idempotent: true
      })
      // Undone once (additive): the sandbox store takes the old price back; a second undo is a conflict.
      const undo = `/api/v1/recommendations/${fresh.id}/undo`
      const undone = bodyOf(yield* call("POST", undo, { token: owner.token }))
      assert.deepStrictEqual(undone.write_back, { status: "applied", attempts: 1 })
      assert.strictEqual(Object(undone.recommendation).status, "applied")
      expectError(yield* call("POST", undo, { token: owner.token }), 409, "conflict")

      const pending = yield* recommendationFor(workspace, item, { status: "pending_approval" })
      const reject = `/api/v1/recommendations/${pending.id}/reject`
      const approver = yield* member(workspace, "approver")
      const jwt = yield* session(approver.user)
      const rejected = bodyOf(yield* call("POST", reject, { token: jwt, body: { reason: "too steep" } }))
      assert.strictEqual(Object(rejected.recommendation).reject_reason, "too steep")
      expectError(yield* call("POST", reject, { token: jwt, body: { reason: "again" } }), 409, "conflict")
    })
  )

  it.effect("alerts snooze idempotently; another workspace's ids are not found", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const other = yield* aWorkspaceWithOwner()
      const alert = yield* seedAlert(workspace)
      const snooze = `/api/v1/alerts/${alert.id}/snooze`
      const body = { snooze_until: "2099-01-01T00:00:00Z", reason: "later" }
      assert.strictEqual(
        Object(bodyOf(yield* call("POST", snooze, { token: owner.token, body })).alert).status,
        "snoozed"
      )
      assert.deepStrictEqual((yield* call("POST", snooze, { token: owner.token, body })).json, {
        ok: true,
        idempotent: true
      })
      expectError(yield* call("POST", snooze, { token: other.owner.token, body }), 404, "not_found")
      expectError(yield* call("GET", `/api/v1/alerts/${alert.id}`, { token: other.owner.token }), 404, "not_found")
      const status = bodyOf(yield* call("GET", "/api/v1/workspace/status", { token: owner.token }))
      assert.deepStrictEqual(Object.keys(status).sort(), ["account_deletion", "lifecycle", "support_access", "usage"])
    })
  )

  it.effect("a cursor whose instant is out of range is 422 naming cursor on every list, never the database's 503", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const token = { token: owner.token }
      // Well formed (base 36 instant, dot, id), but the instant is past any date PostgreSQL or JavaScript holds.
      for (const path of ["/api/v1/runs", "/api/v1/recommendations", "/api/v1/alerts", "/api/v1/catalog/items"]) {
        for (const cursor of ["2dnw4tonmyo.run_x", "zzzzzzzzzzzz.rec_1", "2gosa7pa2gw.itm_a"]) {
          const body = expectError(yield* call("GET", `${path}?cursor=${cursor}`, token), 422, "validation_error")
          assert.deepStrictEqual(
            Array.isArray(body.issues) ? body.issues.map((issue) => Object(issue).path) : [],
            ["cursor"],
            `${path}?cursor=${cursor}`
          )
        }
      }
      // The last instant a Date holds (+275760-09-13) still pages: an empty page, not an error.
      const last = bodyOf(yield* call("GET", `/api/v1/runs?cursor=${(8.64e15).toString(36)}.run_x`, token))
      assert.deepStrictEqual(last.data, [])
    })
  )

  it.effect(
    "MCP: a cursor whose instant is out of range is refused naming cursor on every list tool, never unavailable",
    () =>
      Effect.gen(function* () {
        const { owner } = yield* aWorkspaceWithOwner()
        const agent = yield* connect(owner.token)
        for (const tool of [
          "list_runs",
          "list_recommendations",
          "list_alerts",
          "list_catalog_items",
          "export_report"
        ]) {
          const outcome = yield* agent.call(tool, { cursor: "2dnw4tonmyo.run_x" })
          const text = typeof outcome.json === "string" ? outcome.json : JSON.stringify(outcome.json)
          // An argument that fails its schema: the MCP server's own error result naming it (docs/mcp.md).
          assert.isTrue(outcome.isError, `${tool}: ${text}`)
          assert.match(text, /\["cursor"\]/, tool)
          assert.notInclude(text, "service_unavailable", tool)
        }
      }).pipe(Effect.scoped)
  )

  it.effect("a session JWT whose sub holds a NUL is 401, never the database's 503", () =>
    Effect.gen(function* () {
      const { workspace } = yield* aWorkspaceWithOwner()
      const approver = yield* member(workspace, "approver")
      for (const sub of ["usr_\u0000", "\u0000", `${approver.user.id}\u0000`]) {
        const jwt = yield* SessionSigner.use((signer) => signer.sign(UserId.make(sub), 600))
        const answer = yield* call("GET", "/api/v1/workspace/status", { token: jwt })
        expectError(answer, 401, "unauthorized")
      }
      // The same user without the NUL is served.
      const fine = yield* call("GET", "/api/v1/workspace/status", { token: yield* session(approver.user) })
      assert.strictEqual(fine.status, 200, fine.text)
    })
  )

  it.effect("a NUL in an id, a query or a body is 404 or 422, never the database's 503", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const pending = yield* recommendationFor(workspace, yield* importItem(workspace), {
        status: "pending_approval"
      })
      const token = { token: owner.token }
      for (const path of ["/api/v1/runs/run_%00", "/api/v1/recommendations/rec_%00", "/api/v1/alerts/alt_%00"]) {
        expectError(yield* call("GET", path, token), 404, "not_found")
      }
      expectError(yield* call("POST", "/api/v1/recommendations/rec_%00/accept", token), 404, "not_found")
      expectError(yield* call("POST", "/api/v1/alerts/alt_%00/resolve", token), 404, "not_found")
      expectError(yield* call("GET", "/api/v1/recommendations?run_id=run_%00", token), 422, "validation_error")
      expectError(yield* call("GET", "/api/v1/catalog/items?tag=%00", token), 422, "validation_error")
      expectError(
        yield* call("POST", "/api/v1/runs", { ...token, body: { subset_tags: ["a\u0000b"] } }),
        422,
        "validation_error"
      )
      expectError(
        yield* call("POST", `/api/v1/recommendations/${pending.id}/reject`, {
          ...token,
          body: { reason: "a\u0000b" }
        }),
        422,
        "validation_error"
      )
    })
  )
})
