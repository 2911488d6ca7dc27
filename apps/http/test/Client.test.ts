import { assert, layer } from "@effect/vitest"
import { type ClientConfig, MarginClient, type MarginClientShape, type MarginError } from "@margin/client"
import {
  addMember,
  aWorkspaceWithOwner,
  importItem,
  seedAlert,
  seedRecommendation,
  session
} from "@margin/edge/testing/World"
import { baseUrl, layer as testServer } from "@margin/runtime/testing/TestServer"
import { Clock, Effect } from "effect"
import {
  describeError,
  errorScenarios,
  expectApprovedOnce,
  expectScenarioError,
  scenarioCodes
} from "./ClientScenarios.ts"
import { unavailableCatalog } from "./UnavailableCatalog.ts"

/** The Effect face of @margin/client against the REST server, over real HTTP (docs/client.md). */

const withClient = <A, E>(config: ClientConfig, use: (client: MarginClientShape) => Effect.Effect<A, E>) =>
  Effect.provide(MarginClient.use(use), MarginClient.layerFetch(config))

const failureOf = <A>(effect: Effect.Effect<A, MarginError>) => Effect.map(Effect.flip(effect), describeError)

layer(testServer(), { excludeTestServices: true })("client, Effect face", (it) => {
  it.effect("pages through recommendations with next_cursor, newest first", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const seeded = []
      for (let n = 0; n < 5; n++) seeded.push((yield* seedRecommendation(workspace, { createdAt: 1_000 + n })).id)
      const config = { baseUrl: yield* baseUrl, token: owner.token }
      const { pages, whole } = yield* withClient(config, (client) =>
        Effect.gen(function* () {
          const pages: Array<ReadonlyArray<string>> = []
          let cursor: string | null = null
          do {
            const page: { readonly data: ReadonlyArray<{ readonly id: string }>; readonly next_cursor: string | null } =
              yield* client.listRecommendations(cursor === null ? { limit: 2 } : { limit: 2, cursor })
            pages.push(page.data.map((recommendation) => recommendation.id))
            cursor = page.next_cursor
          } while (cursor !== null)
          const whole = yield* client.listRecommendations({ status: "new" })
          return { pages, whole }
        })
      )
      assert.deepStrictEqual(
        pages.map((page) => page.length),
        [2, 2, 1]
      )
      assert.deepStrictEqual(pages.flat(), [...seeded].reverse())
      assert.deepStrictEqual(
        whole.data.map((recommendation) => recommendation.id),
        [...seeded].reverse()
      )
      assert.isNull(whole.next_cursor)
    })
  )

  it.effect("every other operation answers its success, decoded by the definition", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const [toAccept, toDismiss] = [yield* seedRecommendation(workspace), yield* seedRecommendation(workspace)]
      const toReject = yield* seedRecommendation(workspace, { status: "pending_approval" })
      // One alert of each kind: a second open one of a kind would be skipped (raiseMany).
      const toSnooze = yield* seedAlert(workspace, { kind: "negative_margin" })
      const toResolve = yield* seedAlert(workspace, { kind: "missing_cost" })
      const toDismissAlert = yield* seedAlert(workspace, { kind: "price_drift" })
      yield* importItem(workspace, { sku: "CLIENT-TAGGED", tags: ["client-tag"] })
      const config = { baseUrl: yield* baseUrl, token: owner.token }
      const later = (yield* Clock.currentTimeMillis) + 3_600_000
      yield* withClient(config, (client) =>
        Effect.gen(function* () {
          assert.strictEqual((yield* client.getRecommendation(toAccept.id)).write_back, null)
          const accepted = yield* client.acceptRecommendation(toAccept.id)
          assert.isTrue(!accepted.idempotent && accepted.recommendation.status === "pending_approval")
          assert.deepStrictEqual(yield* client.acceptRecommendation(toAccept.id), { ok: true, idempotent: true })
          const dismissed = yield* client.dismissRecommendation(toDismiss.id)
          assert.isTrue(!dismissed.idempotent && dismissed.recommendation.status === "dismissed")
          const rejected = yield* client.rejectRecommendation(toReject.id, { reason: "too steep" })
          assert.isTrue(!rejected.idempotent && rejected.recommendation.reject_reason === "too steep")

          assert.includeMembers(
            (yield* client.listAlerts()).data.map((listed) => listed.id),
            [toSnooze.id, toResolve.id, toDismissAlert.id]
          )
          assert.strictEqual((yield* client.getAlert(toSnooze.id)).id, toSnooze.id)
          const snoozed = yield* client.snoozeAlert(toSnooze.id, { snooze_until: later, reason: "supplier" })
          assert.isTrue(!snoozed.idempotent && snoozed.alert.status === "snoozed")
          const resolved = yield* client.resolveAlert(toResolve.id)
          assert.isTrue(!resolved.idempotent && resolved.alert.status === "resolved")
          const dismissedAlert = yield* client.dismissAlert(toDismissAlert.id)
          assert.isTrue(!dismissedAlert.idempotent && dismissedAlert.alert.status === "dismissed")

          const items = yield* client.listCatalogItems({ tag: "client-tag" })
          assert.deepStrictEqual(
            items.data.map((item) => item.sku),
            ["CLIENT-TAGGED"]
          )
          assert.strictEqual((yield* client.getWorkspaceStatus()).lifecycle.plan, "max")
          assert.deepStrictEqual(yield* client.readyz(), { status: "ready" })
          // Last: the run it queues supersedes the workspace's new recommendations.
          const run = yield* client.triggerRun({ subset_tags: ["client-tag"] })
          assert.strictEqual(run.status, "queued")
          assert.strictEqual((yield* client.getRun(run.id)).id, run.id)
          assert.include(
            (yield* client.listRuns()).data.map((listed) => listed.id),
            run.id
          )
        })
      )
    })
  )

  it.effect("imports a catalog file, CSV or JSON lines, dry run or not, and reads the import back", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const config = { baseUrl: yield* baseUrl, token: owner.token }
      const { dry, csv, jsonl, again } = yield* withClient(config, (client) =>
        Effect.gen(function* () {
          const file = "sku,title,currency,price\nC-1,Cup,USD,3.00\n"
          const dry = yield* client.importCatalog(file, { format: "csv", dryRun: true })
          const csv = yield* client.importCatalog(file, { format: "csv" })
          const jsonl = yield* client.importCatalog('{"sku":"C-1","price":"3.50"}\n', { format: "jsonl" })
          const again = yield* client.getCatalogImport(jsonl.id)
          return { dry, csv, jsonl, again }
        })
      )
      assert.deepStrictEqual([dry.dry_run, dry.summary.created], [true, 1])
      assert.deepStrictEqual([csv.dry_run, csv.summary.created], [false, 1])
      assert.deepStrictEqual([jsonl.format, jsonl.summary.price_changed], ["jsonl", 1])
      assert.deepStrictEqual(again, jsonl)
    })
  )

  it.effect("approve writes the price back once; the repeat answers {ok: true, idempotent: true}", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const pending = yield* seedRecommendation(workspace, { status: "pending_approval" })
      const config = { baseUrl: yield* baseUrl, token: owner.token }
      const answers = yield* withClient(config, (client) =>
        Effect.all([client.approveRecommendation(pending.id), client.approveRecommendation(pending.id)])
      )
      yield* expectApprovedOnce(pending.id, answers)
    })
  )

  it.effect("every error code of the contract, narrowed by code, with the request's id", () =>
    Effect.gen(function* () {
      const scenarios = yield* errorScenarios
      assert.deepStrictEqual(
        scenarios.map((scenario) => scenario.code),
        scenarioCodes
      )
      for (const scenario of scenarios) {
        const error = yield* failureOf(withClient(scenario.config, scenario.effect))
        expectScenarioError(error, scenario)
        if (error.code === "validation_error") {
          assert.deepStrictEqual(
            error.detail.map((issue) => issue.path),
            ["snooze_until"]
          )
        }
        if (error.code === "insufficient_scope") assert.strictEqual(error.detail, "recommendations:read")
      }
    })
  )

  it.effect("a session JWT names its workspace with workspaceId when its user has several", () =>
    Effect.gen(function* () {
      const first = yield* aWorkspaceWithOwner({ plan: "enterprise" })
      const second = yield* aWorkspaceWithOwner({ plan: "pro" })
      yield* addMember(second.workspace, first.owner.user, "approver")
      const jwt = yield* session(first.owner.user)
      const base = yield* baseUrl
      const unnamed = yield* failureOf(
        withClient({ baseUrl: base, token: jwt }, (client) => client.getWorkspaceStatus())
      )
      assert.strictEqual(unnamed.code, "workspace_forbidden")
      const named = yield* withClient({ baseUrl: base, token: jwt, workspaceId: second.workspace.id }, (client) =>
        client.getWorkspaceStatus()
      )
      assert.strictEqual(named.lifecycle.plan, "pro")
      const tokenOnly = yield* failureOf(withClient({ baseUrl: base, token: jwt }, (client) => client.listRuns()))
      assert.strictEqual(tokenOnly.code, "unauthorized")
    })
  )

  it.effect("the report is CSV text, or JSON when asked; the probes answer", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const recommendation = yield* seedRecommendation(workspace)
      const config = { baseUrl: yield* baseUrl, token: owner.token }
      const [report, json, health] = yield* withClient(config, (client) =>
        Effect.all([client.exportReport(), client.exportReport({ format: "json" }), client.healthz()])
      )
      if (typeof report !== "string") return assert.fail("the report is CSV unless JSON is asked for")
      assert.match(report, /^recommendation_id,run_id,/)
      assert.include(report, recommendation.id)
      if (typeof json === "string") return assert.fail("JSON was asked for")
      assert.deepStrictEqual(
        json.data.map((row) => row.recommendation_id),
        [recommendation.id]
      )
      assert.deepStrictEqual(health, { status: "ok" })
    })
  )

  it.effect(
    "refused before sending: a limit out of range, a cursor the service never hands out, a reason too long",
    () =>
      Effect.gen(function* () {
        const { owner } = yield* aWorkspaceWithOwner()
        const config = { baseUrl: yield* baseUrl, token: owner.token }
        const refusals = yield* withClient(config, (client) =>
          Effect.all([
            failureOf(client.listRecommendations({ limit: 0 })),
            failureOf(client.listRecommendations({ cursor: "not a cursor" })),
            failureOf(client.rejectRecommendation("rec_missing", { reason: "x".repeat(1001) }))
          ])
        )
        assert.deepStrictEqual(
          refusals.map((refusal) => refusal.code),
          ["InvalidRequest", "InvalidRequest", "InvalidRequest"]
        )
      })
  )

  it.effect("no answer at all is a TransportError", () =>
    Effect.gen(function* () {
      const error = yield* failureOf(
        withClient({ baseUrl: "http://127.0.0.1:1", token: "pck_x" }, (client) => client.listRuns())
      )
      assert.strictEqual(error.code, "TransportError")
    })
  )
})

const limit = 3

layer(testServer({ rateLimit: limit }), { excludeTestServices: true })("client, Effect face, rate limit", (it) => {
  it.effect("429 rate_limited carries retryAfter, the Retry-After seconds", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const config = { baseUrl: yield* baseUrl, token: owner.token }
      // Asks until refused: a window that resets mid-way only means more asks, never a timing.
      const refused = yield* withClient(config, (client) =>
        Effect.gen(function* () {
          for (let n = 0; n < 4 * (limit + 1); n++) {
            const outcome = yield* Effect.result(client.listRuns())
            if (outcome._tag === "Failure") return describeError(outcome.failure)
          }
          return assert.fail(`never refused in ${4 * (limit + 1)} requests`)
        })
      )
      assert.strictEqual(refused.code, "rate_limited")
      assert.strictEqual(refused.status, 429)
      assert.isNumber(refused.detail)
      assert.isTrue(Number(refused.detail) >= 1 && Number(refused.detail) <= 60, String(refused.detail))
    })
  )
})

layer(testServer({ override: unavailableCatalog }), { excludeTestServices: true })(
  "client, Effect face, service unavailable",
  (it) => {
    it.effect("503 service_unavailable carries retryAfter, the Retry-After seconds", () =>
      Effect.gen(function* () {
        const { owner } = yield* aWorkspaceWithOwner()
        const config = { baseUrl: yield* baseUrl, token: owner.token }
        const error = yield* failureOf(withClient(config, (client) => client.listCatalogItems()))
        assert.deepStrictEqual([error.code, error.status], ["service_unavailable", 503])
        assert.isTrue(typeof error.detail === "number" && error.detail >= 1, String(error.detail))
      })
    )
  }
)
