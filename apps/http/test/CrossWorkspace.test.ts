import { assert, layer } from "@effect/vitest"
import { AlertRepository } from "@margin/core/alerts/AlertRepository"
import { RecommendationRepository } from "@margin/core/recommendations/RecommendationRepository"
import { aWorkspaceWithOwner, seedAlert, seedRecommendation, seedRun } from "@margin/edge/testing/World"
import { bodyOf, call, expectError, layer as testServer } from "@margin/runtime/testing/TestServer"
import { Effect, Option } from "effect"

/**
 * docs/contract.md, "Workspaces and resources": a caller reaches only its own workspace's resources; another workspace's
 * answer `not_found`, indistinguishable from an id that does not exist.
 */

const future = "2099-01-01T00:00:00Z"

layer(testServer(), { excludeTestServices: true })("cross-workspace probes", (it) => {
  it.effect("every id route answers 404 for another workspace's resource, exactly as for a missing one", () =>
    Effect.gen(function* () {
      const mine = yield* aWorkspaceWithOwner()
      const theirs = yield* aWorkspaceWithOwner()
      const run = yield* seedRun(theirs.workspace)
      const pending = yield* seedRecommendation(theirs.workspace, { status: "pending_approval" })
      const fresh = yield* seedRecommendation(theirs.workspace)
      const alert = yield* seedAlert(theirs.workspace)

      const probes = [
        { method: "GET" as const, path: (id: string) => `/api/v1/runs/${id}`, id: run.id, missing: "run_999999" },
        {
          method: "GET" as const,
          path: (id: string) => `/api/v1/recommendations/${id}`,
          id: fresh.id,
          missing: "rec_999999"
        },
        {
          method: "POST" as const,
          path: (id: string) => `/api/v1/recommendations/${id}/accept`,
          id: fresh.id,
          missing: "rec_999999"
        },
        {
          method: "POST" as const,
          path: (id: string) => `/api/v1/recommendations/${id}/dismiss`,
          id: fresh.id,
          missing: "rec_999999"
        },
        {
          method: "POST" as const,
          path: (id: string) => `/api/v1/recommendations/${id}/approve`,
          id: pending.id,
          missing: "rec_999999"
        },
        {
          method: "POST" as const,
          path: (id: string) => `/api/v1/recommendations/${id}/reject`,
          id: pending.id,
          missing: "rec_999999",
          body: { reason: "mine now" }
        },
        { method: "GET" as const, path: (id: string) => `/api/v1/alerts/${id}`, id: alert.id, missing: "alt_999999" },
        {
          method: "POST" as const,
          path: (id: string) => `/api/v1/alerts/${id}/snooze`,
          id: alert.id,
          missing: "alt_999999",
          body: { snooze_until: future, reason: "mine now" }
        },
        {
          method: "POST" as const,
          path: (id: string) => `/api/v1/alerts/${id}/resolve`,
          id: alert.id,
          missing: "alt_999999"
        },
        {
          method: "POST" as const,
          path: (id: string) => `/api/v1/alerts/${id}/dismiss`,
          id: alert.id,
          missing: "alt_999999"
        }
      ]
      for (const probe of probes) {
        // One request id for both probes, so that their answers may be compared whole.
        const options = {
          token: mine.owner.token,
          headers: { "x-request-id": "cross-workspace-probe" },
          ...(probe.body === undefined ? {} : { body: probe.body })
        }
        const foreign = yield* call(probe.method, probe.path(probe.id), options)
        const missing = yield* call(probe.method, probe.path(probe.missing), options)
        const foreignBody = expectError(foreign, 404, "not_found")
        const missingBody = expectError(missing, 404, "not_found")
        assert.deepStrictEqual(
          { ...foreignBody, message: String(foreignBody.message).replace(probe.id, "<id>") },
          { ...missingBody, message: String(missingBody.message).replace(probe.missing, "<id>") },
          probe.path("<id>")
        )
        assert.deepStrictEqual(
          Object.keys(foreign.headers)
            .filter((name) => name !== "date")
            .sort(),
          Object.keys(missing.headers)
            .filter((name) => name !== "date")
            .sort()
        )
      }

      const stillPending = yield* RecommendationRepository.use((repository) =>
        repository.get(theirs.workspace.id, pending.id)
      )
      assert.strictEqual(Option.getOrThrow(stillPending).status, "pending_approval")
      const stillNew = yield* RecommendationRepository.use((repository) =>
        repository.get(theirs.workspace.id, fresh.id)
      )
      assert.strictEqual(Option.getOrThrow(stillNew).status, "new")
      const stillOpen = yield* AlertRepository.use((repository) => repository.get(theirs.workspace.id, alert.id))
      assert.strictEqual(Option.getOrThrow(stillOpen).status, "open")
    })
  )

  it.effect("lists, the report and the workspace status never show another workspace's rows", () =>
    Effect.gen(function* () {
      const mine = yield* aWorkspaceWithOwner()
      const theirs = yield* aWorkspaceWithOwner()
      yield* seedRun(theirs.workspace)
      yield* seedRecommendation(theirs.workspace)
      yield* seedAlert(theirs.workspace)
      for (const path of ["/api/v1/runs", "/api/v1/recommendations", "/api/v1/alerts", "/api/v1/catalog/items"]) {
        assert.deepStrictEqual(bodyOf(yield* call("GET", path, { token: mine.owner.token })).data, [], path)
      }
      const report = yield* call("GET", "/api/v1/reports/export", { token: mine.owner.token })
      assert.strictEqual(report.text.split("\r\n").filter((line) => line !== "").length, 1, "the header only")
      const status = bodyOf(yield* call("GET", "/api/v1/workspace/status", { token: mine.owner.token }))
      assert.strictEqual(Object(status.usage).catalog_items, 0)
    })
  )

  it.effect("a cursor from another workspace's list does not leak its rows", () =>
    Effect.gen(function* () {
      const mine = yield* aWorkspaceWithOwner()
      const theirs = yield* aWorkspaceWithOwner()
      yield* seedRun(theirs.workspace)
      yield* seedRun(theirs.workspace)
      const page = bodyOf(yield* call("GET", "/api/v1/runs?limit=1", { token: theirs.owner.token }))
      const probe = yield* call("GET", `/api/v1/runs?cursor=${String(page.next_cursor)}`, { token: mine.owner.token })
      assert.strictEqual(probe.status, 200)
      assert.deepStrictEqual(bodyOf(probe).data, [])
    })
  )
})
