import { assert, layer } from "@effect/vitest"
import { MemoryStore } from "@margin/core/memory/MemoryStore"
import { RecommendationRepository } from "@margin/core/recommendations/RecommendationRepository"
import {
  addMember,
  aWorkspaceWithOwner,
  member,
  openSupportSession,
  recommendationFor,
  requestDeletion,
  seedAlert,
  seedItem,
  seedRecommendation,
  seedRun
} from "@margin/edge/testing/World"
import { bodyOf, call, expectError, layer as testServer } from "@margin/runtime/testing/TestServer"
import { Effect, Option, Schedule } from "effect"

/** The contract's endpoints (docs/api.md): every endpoint, its status and the shape of its answer; plus the additive ones. */

const ids = (body: Readonly<Record<string, unknown>>): ReadonlyArray<unknown> => {
  const data = body.data
  assert.isTrue(Array.isArray(data), "a list answers { data: [...] }")
  return Array.isArray(data) ? data.map((entry) => Object(entry).id) : []
}

const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

layer(testServer(), { excludeTestServices: true })("REST v1 endpoints", (it) => {
  it.effect("GET /api/v1/runs lists runs newest first, pages with limit and cursor, filters by status", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const older = yield* seedRun(workspace, { status: "succeeded", createdAt: 1_000 })
      const newer = yield* seedRun(workspace, { status: "failed", createdAt: 2_000 })
      const newest = yield* seedRun(workspace, { status: "succeeded", createdAt: 3_000 })

      const all = yield* call("GET", "/api/v1/runs", { token: owner.token })
      assert.strictEqual(all.status, 200)
      assert.deepStrictEqual(ids(bodyOf(all)), [newest.id, newer.id, older.id])
      assert.strictEqual(bodyOf(all).next_cursor, null)

      const first = bodyOf(yield* call("GET", "/api/v1/runs?limit=2", { token: owner.token }))
      assert.deepStrictEqual(ids(first), [newest.id, newer.id])
      assert.isString(first.next_cursor)
      const second = bodyOf(
        yield* call("GET", `/api/v1/runs?limit=2&cursor=${String(first.next_cursor)}`, { token: owner.token })
      )
      assert.deepStrictEqual(ids(second), [older.id])
      assert.strictEqual(second.next_cursor, null)

      const succeeded = bodyOf(yield* call("GET", "/api/v1/runs?status=succeeded", { token: owner.token }))
      assert.deepStrictEqual(ids(succeeded), [newest.id, older.id])
    })
  )

  it.effect("a run answers snake_case fields and ISO 8601 UTC timestamps", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const run = yield* seedRun(workspace, { subsetTags: ["summer"] })
      const reply = yield* call("GET", `/api/v1/runs/${run.id}`, { token: owner.token })
      assert.strictEqual(reply.status, 200)
      const body = bodyOf(reply)
      assert.deepStrictEqual(Object.keys(body).sort(), [
        "alerts_count",
        "created_at",
        "error",
        "finished_at",
        "id",
        "items_analysed",
        "items_total",
        "recommendations_count",
        "requested_by",
        "started_at",
        "status",
        "subset_tags",
        "trigger"
      ])
      assert.strictEqual(body.id, run.id)
      assert.deepStrictEqual(body.subset_tags, ["summer"])
      assert.match(String(body.created_at), isoUtc)
    })
  )

  it.effect("POST /api/v1/runs answers 202 with the queued run and executes it in the background", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      yield* seedItem(workspace, { tags: ["summer"], price: 1000, cost: 900 })
      const reply = yield* call("POST", "/api/v1/runs", { token: owner.token, body: { subset_tags: ["summer"] } })
      assert.strictEqual(reply.status, 202)
      const run = bodyOf(reply)
      assert.strictEqual(run.status, "queued")
      assert.strictEqual(run.trigger, "api")
      assert.deepStrictEqual(run.subset_tags, ["summer"])

      const finished = yield* call("GET", `/api/v1/runs/${String(run.id)}`, { token: owner.token }).pipe(
        Effect.map(bodyOf),
        Effect.repeat({
          until: (body) => body.status === "succeeded" || body.status === "failed",
          schedule: Schedule.spaced("20 millis")
        }),
        Effect.timeout("10 seconds")
      )
      assert.strictEqual(finished.status, "succeeded")
      assert.strictEqual(finished.items_analysed, 1)
      const made = bodyOf(
        yield* call("GET", `/api/v1/recommendations?run_id=${String(run.id)}`, { token: owner.token })
      )
      assert.strictEqual(ids(made).length, finished.recommendations_count)
    })
  )

  it.effect("POST /api/v1/runs without a body runs the whole catalog", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const reply = yield* call("POST", "/api/v1/runs", { token: owner.token })
      assert.strictEqual(reply.status, 202)
      assert.deepStrictEqual(bodyOf(reply).subset_tags, [])
    })
  )

  it.effect("GET /api/v1/recommendations?status=new lists only new ones; money is minor units plus currency", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const fresh = yield* seedRecommendation(workspace, { currentPrice: 1000, recommendedPrice: 1099 })
      yield* seedRecommendation(workspace, { status: "pending_approval" })
      const reply = yield* call("GET", "/api/v1/recommendations?status=new", { token: owner.token })
      assert.strictEqual(reply.status, 200)
      const body = bodyOf(reply)
      assert.deepStrictEqual(ids(body), [fresh.id])
      const first = Object(Array.isArray(body.data) ? body.data[0] : undefined)
      assert.deepStrictEqual(first.current_price, { amount_minor: 1000, currency: "USD", amount_decimal: "10.00" })
      assert.deepStrictEqual(first.recommended_price, { amount_minor: 1099, currency: "USD", amount_decimal: "10.99" })
      assert.strictEqual(first.status, "new")
    })
  )

  it.effect("GET /api/v1/recommendations filters by the item's tag and by rule; an unknown rule is a 422", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const summer = yield* seedItem(workspace, { tags: ["summer"] })
      const winter = yield* seedItem(workspace, { tags: ["winter"] })
      const onSummer = yield* recommendationFor(workspace, summer, { rule: "below_profit_optimum" })
      const onWinter = yield* recommendationFor(workspace, winter, { rule: "below_floor" })
      const list = (query: string) => call("GET", `/api/v1/recommendations?${query}`, { token: owner.token })
      assert.deepStrictEqual(ids(bodyOf(yield* list("tag=summer"))), [onSummer.id])
      assert.deepStrictEqual(ids(bodyOf(yield* list("rule=below_floor"))), [onWinter.id])
      assert.deepStrictEqual(ids(bodyOf(yield* list("tag=winter&rule=below_profit_optimum"))), [])
      const refused = yield* list("rule=cheapest")
      assert.strictEqual(refused.status, 422)
    })
  )

  it.effect("GET /api/v1/recommendations/<id> answers one recommendation", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const recommendation = yield* seedRecommendation(workspace)
      const reply = yield* call("GET", `/api/v1/recommendations/${recommendation.id}`, { token: owner.token })
      assert.strictEqual(reply.status, 200)
      assert.strictEqual(bodyOf(reply).id, recommendation.id)
      assert.strictEqual(bodyOf(reply).sku, recommendation.sku)
    })
  )

  it.effect("POST accept: 200 with the recommendation, then an idempotent repeat", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const recommendation = yield* seedRecommendation(workspace)
      const path = `/api/v1/recommendations/${recommendation.id}/accept`
      const first = yield* call("POST", path, { token: owner.token })
      assert.strictEqual(first.status, 200)
      assert.strictEqual(bodyOf(first).ok, true)
      assert.strictEqual(bodyOf(first).idempotent, false)
      assert.strictEqual(Object(bodyOf(first).recommendation).status, "pending_approval")
      const again = yield* call("POST", path, { token: owner.token })
      assert.strictEqual(again.status, 200)
      assert.deepStrictEqual(again.json, { ok: true, idempotent: true })
    })
  )

  it.effect("POST approve: writes the price back to the store exactly once; a repeat is idempotent", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const recommendation = yield* seedRecommendation(workspace, {
        status: "pending_approval",
        currentPrice: 1000,
        recommendedPrice: 1099
      })
      const path = `/api/v1/recommendations/${recommendation.id}/approve`
      const first = yield* call("POST", path, { token: owner.token })
      assert.strictEqual(first.status, 200)
      const body = bodyOf(first)
      assert.strictEqual(body.ok, true)
      assert.strictEqual(body.idempotent, false)
      assert.deepStrictEqual(body.write_back, { status: "applied", attempts: 1 })
      assert.strictEqual(Object(body.recommendation).status, "applied")
      const shown = bodyOf(yield* call("GET", `/api/v1/recommendations/${recommendation.id}`, { token: owner.token }))
      const shownWriteBack = Object(shown.write_back)
      assert.deepStrictEqual(
        [shownWriteBack.status, shownWriteBack.attempts, shownWriteBack.last_error],
        ["applied", 1, null]
      )
      assert.strictEqual(shownWriteBack.next_attempt_at, null)
      assert.match(String(shownWriteBack.applied_at), /^\d{4}-\d{2}-\d{2}T/)

      const again = yield* call("POST", path, { token: owner.token })
      assert.strictEqual(again.status, 200)
      assert.deepStrictEqual(again.json, { ok: true, idempotent: true })
      const writes = yield* MemoryStore.use((store) => store.writes)
      assert.strictEqual(writes.filter((write) => write.idempotencyKey === recommendation.id).length, 1)
    })
  )

  it.effect("POST undo (additive): the previous price written back once; a second undo is 409 conflict", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const analyst = yield* member(workspace, "analyst")
      const item = yield* seedItem(workspace, { price: 1000 })
      const recommendation = yield* seedRecommendation(workspace, {
        itemId: item.id,
        sku: item.sku,
        status: "pending_approval",
        currentPrice: 1000,
        recommendedPrice: 1099
      })
      const base = `/api/v1/recommendations/${recommendation.id}`
      // Nothing applied yet: nothing to undo.
      expectError(yield* call("POST", `${base}/undo`, { token: owner.token }), 409, "conflict")
      assert.strictEqual((yield* call("POST", `${base}/approve`, { token: owner.token })).status, 200)
      const price = MemoryStore.use((store) => store.priceOf(workspace.id, item.storeVariantRef ?? ""))
      assert.deepStrictEqual(yield* price, Option.some(1099))
      expectError(yield* call("POST", `${base}/undo`, { token: analyst.token }), 403, "forbidden_role")

      const undone = yield* call("POST", `${base}/undo`, { token: owner.token })
      assert.strictEqual(undone.status, 200)
      const body = bodyOf(undone)
      assert.deepStrictEqual([body.ok, body.idempotent], [true, false])
      assert.deepStrictEqual(body.write_back, { status: "applied", attempts: 1 })
      assert.strictEqual(Object(body.recommendation).status, "applied")
      assert.deepStrictEqual(yield* price, Option.some(1000))
      const again = yield* call("POST", `${base}/undo`, { token: owner.token })
      expectError(again, 409, "conflict")
      assert.include(String(bodyOf(again).message), "already undone")
      assert.deepStrictEqual(yield* price, Option.some(1000))
    })
  )

  it.effect("POST approve while the store is down: approved, write_back pending", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const recommendation = yield* seedRecommendation(workspace, { status: "pending_approval" })
      yield* MemoryStore.use((store) => store.failNext(1))
      const reply = yield* call("POST", `/api/v1/recommendations/${recommendation.id}/approve`, { token: owner.token })
      assert.strictEqual(reply.status, 200)
      assert.deepStrictEqual(bodyOf(reply).write_back, { status: "pending", attempts: 1 })
      assert.strictEqual(Object(bodyOf(reply).recommendation).status, "approved")
      const shown = bodyOf(yield* call("GET", `/api/v1/recommendations/${recommendation.id}`, { token: owner.token }))
      const writeBack = Object(shown.write_back)
      assert.deepStrictEqual([writeBack.status, writeBack.attempts, writeBack.applied_at], ["pending", 1, null])
      assert.isString(writeBack.last_error)
      assert.isString(writeBack.next_attempt_at)
    })
  )

  it.effect("GET a recommendation that was never approved: write_back is null", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const recommendation = yield* seedRecommendation(workspace, {})
      const shown = bodyOf(yield* call("GET", `/api/v1/recommendations/${recommendation.id}`, { token: owner.token }))
      assert.strictEqual(shown.id, recommendation.id)
      assert.strictEqual(shown.write_back, null)
    })
  )

  it.effect("POST reject: 200 with the reason; a second reject is 409 conflict", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const recommendation = yield* seedRecommendation(workspace, { status: "pending_approval" })
      const path = `/api/v1/recommendations/${recommendation.id}/reject`
      const first = yield* call("POST", path, { token: owner.token, body: { reason: "too steep" } })
      assert.strictEqual(first.status, 200)
      assert.strictEqual(Object(bodyOf(first).recommendation).status, "rejected")
      assert.strictEqual(Object(bodyOf(first).recommendation).reject_reason, "too steep")
      expectError(yield* call("POST", path, { token: owner.token, body: { reason: "again" } }), 409, "conflict")
    })
  )

  it.effect("POST dismiss on a recommendation, then an idempotent repeat", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const recommendation = yield* seedRecommendation(workspace)
      const path = `/api/v1/recommendations/${recommendation.id}/dismiss`
      const first = yield* call("POST", path, { token: owner.token })
      assert.strictEqual(Object(bodyOf(first).recommendation).status, "dismissed")
      assert.deepStrictEqual((yield* call("POST", path, { token: owner.token })).json, { ok: true, idempotent: true })
    })
  )

  it.effect("approve and reject only from pending_approval: 409 conflict from new", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const recommendation = yield* seedRecommendation(workspace)
      const base = `/api/v1/recommendations/${recommendation.id}`
      expectError(yield* call("POST", `${base}/approve`, { token: owner.token }), 409, "conflict")
      expectError(
        yield* call("POST", `${base}/reject`, { token: owner.token, body: { reason: "no" } }),
        409,
        "conflict"
      )
      const stored = yield* RecommendationRepository.use((repository) =>
        repository.get(workspace.id, recommendation.id)
      )
      assert.strictEqual(Option.getOrThrow(stored).status, "new")
    })
  )

  it.effect("POST snooze: 200 snoozed; the same snooze_until again is idempotent; a past one is 422", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const alert = yield* seedAlert(workspace)
      const path = `/api/v1/alerts/${alert.id}/snooze`
      const until = new Date(Date.now() + 86_400_000).toISOString()
      const first = yield* call("POST", path, {
        token: owner.token,
        body: { snooze_until: until, reason: "waiting for supplier" }
      })
      assert.strictEqual(first.status, 200)
      const snoozed = Object(bodyOf(first).alert)
      assert.strictEqual(snoozed.status, "snoozed")
      assert.strictEqual(snoozed.snoozed_until, until)
      assert.strictEqual(snoozed.snooze_reason, "waiting for supplier")
      const again = yield* call("POST", path, {
        token: owner.token,
        body: { snooze_until: until, reason: "waiting for supplier" }
      })
      assert.deepStrictEqual(again.json, { ok: true, idempotent: true })
      const past = expectError(
        yield* call("POST", path, {
          token: owner.token,
          body: { snooze_until: "2020-01-01T00:00:00Z", reason: "late" }
        }),
        422,
        "validation_error"
      )
      assert.deepStrictEqual(Array.isArray(past.issues) ? past.issues.map((issue) => Object(issue).path) : [], [
        "snooze_until"
      ])
    })
  )

  it.effect("GET /api/v1/alerts lists alerts with status and kind filters; resolve and dismiss are idempotent", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const drift = yield* seedAlert(workspace, { kind: "price_drift" })
      const floor = yield* seedAlert(workspace, { kind: "below_floor" })
      assert.deepStrictEqual(
        ids(bodyOf(yield* call("GET", "/api/v1/alerts?kind=price_drift", { token: owner.token }))),
        [drift.id]
      )
      const resolve = `/api/v1/alerts/${drift.id}/resolve`
      assert.strictEqual(Object(bodyOf(yield* call("POST", resolve, { token: owner.token })).alert).status, "resolved")
      assert.deepStrictEqual((yield* call("POST", resolve, { token: owner.token })).json, {
        ok: true,
        idempotent: true
      })
      const dismiss = `/api/v1/alerts/${floor.id}/dismiss`
      assert.strictEqual(Object(bodyOf(yield* call("POST", dismiss, { token: owner.token })).alert).status, "dismissed")
      assert.deepStrictEqual((yield* call("POST", dismiss, { token: owner.token })).json, {
        ok: true,
        idempotent: true
      })
      assert.deepStrictEqual(ids(bodyOf(yield* call("GET", "/api/v1/alerts?status=open", { token: owner.token }))), [])
      assert.deepStrictEqual(
        ids(bodyOf(yield* call("GET", "/api/v1/alerts?status=resolved", { token: owner.token }))),
        [drift.id]
      )
      expectError(yield* call("POST", `/api/v1/alerts/${drift.id}/dismiss`, { token: owner.token }), 409, "conflict")
      assert.strictEqual(bodyOf(yield* call("GET", `/api/v1/alerts/${floor.id}`, { token: owner.token })).id, floor.id)
    })
  )

  it.effect("GET /api/v1/catalog/items lists items, filters by tag", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const summer = yield* seedItem(workspace, { tags: ["summer"], price: 1250, cost: null })
      yield* seedItem(workspace, { tags: ["winter"] })
      const all = bodyOf(yield* call("GET", "/api/v1/catalog/items", { token: owner.token }))
      assert.strictEqual(ids(all).length, 2)
      const tagged = bodyOf(yield* call("GET", "/api/v1/catalog/items?tag=summer", { token: owner.token }))
      assert.deepStrictEqual(ids(tagged), [summer.id])
      const item = Object(Array.isArray(tagged.data) ? tagged.data[0] : undefined)
      assert.deepStrictEqual(item.price, { amount_minor: 1250, currency: "USD", amount_decimal: "12.50" })
      assert.strictEqual(item.cost, null)
    })
  )

  it.effect("GET /api/v1/catalog/items?sku= finds a part of the SKU, case-insensitively", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const mug = yield* seedItem(workspace, { sku: "MUG-Red-1" })
      yield* seedItem(workspace, { sku: "HAT-1" })
      const found = bodyOf(yield* call("GET", "/api/v1/catalog/items?sku=red", { token: owner.token }))
      assert.deepStrictEqual(ids(found), [mug.id])
      const tooLong = yield* call("GET", `/api/v1/catalog/items?sku=${"x".repeat(101)}`, { token: owner.token })
      assert.strictEqual(tooLong.status, 422)
    })
  )

  it.effect("GET /api/v1/reports/export: CSV by default, JSON on Accept: application/json", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const recommendation = yield* seedRecommendation(workspace, { sku: 'MUG, "large"' })
      const csv = yield* call("GET", "/api/v1/reports/export", { token: owner.token })
      assert.strictEqual(csv.status, 200)
      assert.match(csv.headers["content-type"] ?? "", /^text\/csv/)
      const lines = csv.text.split("\r\n")
      assert.isTrue(lines[0]?.startsWith("recommendation_id,run_id,item_id,sku,currency,current_price"))
      assert.strictEqual(lines.length, 3, "header, one row, and the final line break")
      assert.isTrue(lines[1]?.startsWith(`${recommendation.id},`))
      assert.include(lines[1] ?? "", '"MUG, ""large"""')

      const json = yield* call("GET", "/api/v1/reports/export", {
        token: owner.token,
        headers: { accept: "application/json" }
      })
      assert.strictEqual(json.status, 200)
      assert.match(json.headers["content-type"] ?? "", /^application\/json/)
      const rows = bodyOf(json).data
      assert.isTrue(Array.isArray(rows) && rows.length === 1)
      assert.strictEqual(Object(Array.isArray(rows) ? rows[0] : undefined).recommendation_id, recommendation.id)
    })
  )

  it.effect("a recommendation and its export rows carry the elasticity, its interval and its source", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const recommendation = yield* seedRecommendation(workspace, {
        elasticity: -2.1,
        elasticityInterval: [-2.6, -1.6],
        elasticitySource: "pooled"
      })
      const body = bodyOf(yield* call("GET", `/api/v1/recommendations/${recommendation.id}`, { token: owner.token }))
      assert.deepStrictEqual(
        [body.elasticity, body.elasticity_interval, body.elasticity_source, body.elasticity_sample_size],
        [-2.1, [-2.6, -1.6], "pooled", 0]
      )
      const listed = bodyOf(yield* call("GET", "/api/v1/recommendations", { token: owner.token })).data
      assert.deepStrictEqual(Object(Array.isArray(listed) ? listed[0] : undefined).elasticity_interval, [-2.6, -1.6])

      const csv = (yield* call("GET", "/api/v1/reports/export", { token: owner.token })).text.split("\r\n")
      assert.isTrue(csv[0]?.endsWith(",created_at,elasticity,elasticity_low,elasticity_high,elasticity_source"))
      assert.isTrue(csv[1]?.endsWith(",-2.1,-2.6,-1.6,pooled"))
      const rows = bodyOf(
        yield* call("GET", "/api/v1/reports/export", { token: owner.token, headers: { accept: "application/json" } })
      ).data
      const row = Object(Array.isArray(rows) ? rows[0] : undefined)
      assert.deepStrictEqual(
        [row.elasticity, row.elasticity_interval, row.elasticity_source],
        [-2.1, [-2.6, -1.6], "pooled"]
      )
    })
  )

  it.effect("GET /api/v1/workspace/status: all four keys, nulls when nothing is open", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner({ plan: "pro" })
      const reply = yield* call("GET", "/api/v1/workspace/status", { token: owner.token })
      assert.strictEqual(reply.status, 200)
      const body = bodyOf(reply)
      assert.deepStrictEqual(Object.keys(body).sort(), ["account_deletion", "lifecycle", "support_access", "usage"])
      assert.strictEqual(body.support_access, null)
      assert.strictEqual(body.account_deletion, null)
      assert.strictEqual(Object(body.lifecycle).plan, "pro")
      assert.strictEqual(Object(body.usage).runs_limit, 200)
    })
  )

  it.effect("workspace status: support_access has exactly four fields; account_deletion is the caller's own", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const other = yield* aWorkspaceWithOwner()
      const colleague = yield* member(workspace, "analyst")
      yield* openSupportSession(workspace, "helper@margin.example")
      yield* openSupportSession(other.workspace, "someone-else@margin.example")
      const deletion = yield* requestDeletion(owner.user, "blocked")

      const mine = bodyOf(yield* call("GET", "/api/v1/workspace/status", { token: owner.token }))
      const support = Object(mine.support_access)
      assert.deepStrictEqual(Object.keys(support).sort(), ["active", "admin_email", "expires_at", "started_at"])
      assert.strictEqual(support.active, true)
      assert.strictEqual(support.admin_email, "helper@margin.example")
      assert.deepStrictEqual(mine.account_deletion, {
        scheduled: new Date(deletion.scheduledAt).toISOString(),
        effective_at: new Date(deletion.effectiveAt).toISOString()
      })

      const theirs = bodyOf(yield* call("GET", "/api/v1/workspace/status", { token: colleague.token }))
      assert.strictEqual(theirs.account_deletion, null, "another user's deletion never shows")
      assert.strictEqual(Object(theirs.support_access).admin_email, "helper@margin.example")
      yield* addMember(other.workspace, colleague.user, "viewer")
    })
  )
})
