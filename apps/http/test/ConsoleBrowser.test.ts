import { assert, describe, layer } from "@effect/vitest"
import type { Recommendation } from "@margin/core/recommendations/Recommendation"
import { RecommendationRepository } from "@margin/core/recommendations/RecommendationRepository"
import { seedWorkspace } from "@margin/core/testing/Seed"
import { addMember, aWorkspaceWithOwner, member, seedRecommendation } from "@margin/edge/testing/World"
import { heading, noSeriousViolations } from "@margin/runtime/testing/AxeCheck"
import * as ConsoleTestServer from "@margin/runtime/testing/ConsoleTestServer"
import {
  browser,
  browserInstalled,
  executablePath,
  freshPage,
  promise,
  signIn
} from "@margin/runtime/testing/HeadlessChromium"
import { Effect, Option } from "effect"

if (!browserInstalled)
  console.log(`ConsoleBrowser.test.ts skipped: no browser at ${executablePath} (apt-get install chromium)`)

const storedStatus = (recommendation: Recommendation) =>
  RecommendationRepository.use((repository) => repository.get(recommendation.workspaceId, recommendation.id)).pipe(
    Effect.map((found) => Option.getOrThrow(found).status)
  )

describe.skipIf(!browserInstalled)("the console in Chromium", () => {
  layer(ConsoleTestServer.layer(), { timeout: "120 seconds" })("signed in by e-mail link", (it) => {
    it.effect("an owner approves from the queue and sees the write-back applied; every page passes axe", () =>
      Effect.gen(function* () {
        const origin = yield* ConsoleTestServer.origin
        const { workspace, owner } = yield* aWorkspaceWithOwner()
        const pending = yield* seedRecommendation(workspace, {
          status: "pending_approval",
          acceptedAt: 1,
          acceptedBy: "seed",
          elasticity: -1.4,
          elasticityInterval: [-2.1, -0.8],
          elasticitySource: "item",
          elasticitySampleSize: 42,
          expectedMonthlyImpact: 90_000
        })
        yield* seedRecommendation(workspace, { status: "new", expectedMonthlyImpact: 100 })
        const { page, violations } = yield* Effect.flatMap(browser, freshPage)
        yield* signIn(page, origin, owner.user.email)

        // One workspace: straight to its queue, largest impact first.
        assert.strictEqual(yield* heading(page), "Recommendations")
        assert.strictEqual(new URL(page.url()).pathname, `/app/w/${workspace.id}/recommendations`)
        const firstSku = yield* promise(() => page.locator("tbody th").first().textContent())
        assert.strictEqual(firstSku, pending.sku)
        yield* noSeriousViolations(page, "queue")

        yield* promise(() => page.getByRole("button", { name: `Approve ${pending.sku}` }).click())
        yield* promise(() => page.waitForURL((url) => url.pathname.endsWith(pending.id)))
        assert.strictEqual(yield* heading(page), `Recommendation for ${pending.sku}`)
        assert.strictEqual(yield* promise(() => page.getByRole("status").textContent()), "Recommendation approved.")
        // The write-back's state: applied by the approval's own delivery, or shortly after (the page refreshes it).
        yield* promise(() => page.locator('#write-back-state[data-status="applied"]').waitFor({ timeout: 10_000 }))
        assert.strictEqual(yield* storedStatus(pending), "applied")
        // The chart is drawn (uPlot's canvas) with no CSP violation.
        yield* promise(() => page.locator("#demand-chart canvas").first().waitFor())
        yield* noSeriousViolations(page, "recommendation")
        assert.deepStrictEqual(violations, [])
      }).pipe(Effect.scoped)
    )

    it.effect("bulk approve answers per item: done, an idempotent repeat and a conflict", () =>
      Effect.gen(function* () {
        const origin = yield* ConsoleTestServer.origin
        const { workspace, owner } = yield* aWorkspaceWithOwner()
        const pending = { status: "pending_approval" as const, acceptedAt: 1, acceptedBy: "seed" }
        const first = yield* seedRecommendation(workspace, { ...pending, expectedMonthlyImpact: 5000 })
        const second = yield* seedRecommendation(workspace, { ...pending, expectedMonthlyImpact: 4000 })
        const repeat = yield* seedRecommendation(workspace, {
          status: "approved",
          acceptedAt: 1,
          approvedAt: 2,
          decidedBy: "user:someone",
          decidedAt: 2,
          expectedMonthlyImpact: 3000
        })
        const conflict = yield* seedRecommendation(workspace, {
          status: "rejected",
          decidedBy: "user:someone",
          decidedAt: 2,
          rejectReason: "too high",
          expectedMonthlyImpact: 2000
        })
        const { page, violations } = yield* Effect.flatMap(browser, freshPage)
        yield* signIn(page, origin, owner.user.email)
        for (const recommendation of [first, second, repeat, conflict]) {
          yield* promise(() => page.getByRole("checkbox", { name: `Select ${recommendation.sku}` }).check())
        }
        yield* promise(() => page.getByRole("button", { name: "Approve selected" }).click())
        assert.strictEqual(yield* heading(page), "Bulk approve: 4 selected")
        const outcome = (sku: string) =>
          promise(() =>
            page
              .getByRole("row", { name: new RegExp(sku) })
              .locator("td")
              .first()
              .textContent()
          )
        assert.strictEqual(yield* outcome(first.sku), "done")
        assert.strictEqual(yield* outcome(second.sku), "done")
        assert.strictEqual(yield* outcome(repeat.sku), "repeat")
        assert.strictEqual(yield* outcome(conflict.sku), "conflict")
        assert.include(
          yield* promise(() => page.getByRole("status").textContent()),
          "2 approved, 1 already so, 1 in conflict, 0 refused"
        )
        yield* noSeriousViolations(page, "bulk-outcome")
        assert.strictEqual(yield* storedStatus(conflict), "rejected")
        assert.deepStrictEqual(violations, [])
      }).pipe(Effect.scoped)
    )

    it.effect("an owner creates an API key, uses it over REST, revokes it and gets 401", () =>
      Effect.gen(function* () {
        const origin = yield* ConsoleTestServer.origin
        const { workspace, owner } = yield* aWorkspaceWithOwner()
        yield* seedRecommendation(workspace)
        const { page, violations } = yield* Effect.flatMap(browser, freshPage)
        yield* signIn(page, origin, owner.user.email, `/app/w/${workspace.id}/settings/api-keys`)
        assert.strictEqual(yield* heading(page), "API keys")
        yield* noSeriousViolations(page, "api-keys")
        yield* promise(() => page.getByLabel("Name").fill("Reporting script"))
        yield* promise(() => page.getByRole("checkbox", { name: "recommendations:read" }).check())
        yield* promise(() => page.getByLabel(/Expires after/).fill("30"))
        yield* promise(() => page.getByRole("button", { name: "Create key" }).click())
        const secret = yield* promise(() => page.getByLabel("Secret").inputValue())
        assert.match(secret, /^pck_/)
        yield* noSeriousViolations(page, "api-key-created")

        const list = () =>
          promise(() =>
            fetch(`${origin}/api/v1/recommendations`, { headers: { authorization: `Bearer ${secret}` } }).then(
              (r) => r.status
            )
          )
        assert.strictEqual(yield* list(), 200)
        // Read-only: a write is refused for want of its scope.
        yield* promise(() => page.goto(page.url()))
        // Listed with its last use (the REST call just made; the test clock stands at the epoch).
        const listed = yield* promise(() =>
          page
            .getByRole("row", { name: /Reporting script/ })
            .locator("td")
            .allTextContents()
        )
        assert.deepStrictEqual(
          [listed[0], listed[2], listed[4]],
          ["recommendations:read", "1970-01-01 00:00 UTC", "usable"]
        )

        yield* promise(() => page.getByRole("button", { name: "Revoke Reporting script" }).click())
        assert.include(yield* promise(() => page.getByRole("status").textContent()), "revoked")
        assert.strictEqual(yield* list(), 401)
        assert.deepStrictEqual(violations, [])
      }).pipe(Effect.scoped)
    )

    it.effect("an analyst sees no approve button, and the server refuses the approve anyway", () =>
      Effect.gen(function* () {
        const origin = yield* ConsoleTestServer.origin
        const { workspace } = yield* aWorkspaceWithOwner()
        const analyst = yield* member(workspace, "analyst")
        const pending = yield* seedRecommendation(workspace, {
          status: "pending_approval",
          acceptedAt: 1,
          acceptedBy: "seed"
        })
        const fresh = yield* seedRecommendation(workspace, { status: "new" })
        const { page } = yield* Effect.flatMap(browser, freshPage)
        yield* signIn(page, origin, analyst.user.email)
        assert.strictEqual(yield* promise(() => page.getByRole("button", { name: /Approve/ }).count()), 0)
        assert.strictEqual(yield* promise(() => page.getByRole("button", { name: `Accept ${fresh.sku}` }).count()), 1)
        assert.strictEqual(yield* promise(() => page.getByRole("link", { name: "API keys" }).count()), 0)
        const csrf = yield* promise(() => page.locator('input[name="csrf"]').first().inputValue())
        const approve = yield* promise(() =>
          page.request.post(`${origin}/app/w/${workspace.id}/recommendations/${pending.id}/approve`, {
            form: { csrf },
            maxRedirects: 0
          })
        )
        assert.strictEqual(approve.status(), 403)
        assert.strictEqual(yield* storedStatus(pending), "pending_approval")
        const keys = yield* promise(() => page.request.get(`${origin}/app/w/${workspace.id}/settings/api-keys`))
        assert.strictEqual(keys.status(), 403)
        // What the analyst may do, the server does.
        yield* promise(() => page.getByRole("button", { name: `Accept ${fresh.sku}` }).click())
        assert.strictEqual(yield* promise(() => page.getByRole("status").textContent()), "Recommendation accepted.")
        assert.strictEqual(yield* storedStatus(fresh), "pending_approval")
      }).pipe(Effect.scoped)
    )

    it.effect("a viewer reads only: no action button, and accept is refused on the server", () =>
      Effect.gen(function* () {
        const origin = yield* ConsoleTestServer.origin
        const { workspace } = yield* aWorkspaceWithOwner()
        const viewer = yield* member(workspace, "viewer")
        const fresh = yield* seedRecommendation(workspace, { status: "new" })
        const { page } = yield* Effect.flatMap(browser, freshPage)
        yield* signIn(page, origin, viewer.user.email)
        assert.strictEqual(
          yield* promise(() => page.getByRole("button", { name: /Accept|Approve|Reject|Dismiss/ }).count()),
          0
        )
        const csrf = yield* promise(() => page.locator('input[name="csrf"]').first().inputValue())
        const accept = yield* promise(() =>
          page.request.post(`${origin}/app/w/${workspace.id}/recommendations/${fresh.id}/accept`, {
            form: { csrf },
            maxRedirects: 0
          })
        )
        assert.strictEqual(accept.status(), 403)
        assert.strictEqual(yield* storedStatus(fresh), "new")
      }).pipe(Effect.scoped)
    )

    it.effect(
      "a form without its session's CSRF token is refused (403) and changes nothing; with it, reject with a reason",
      () =>
        Effect.gen(function* () {
          const origin = yield* ConsoleTestServer.origin
          const { workspace, owner } = yield* aWorkspaceWithOwner()
          const pending = yield* seedRecommendation(workspace, {
            status: "pending_approval",
            acceptedAt: 1,
            acceptedBy: "seed"
          })
          const { page } = yield* Effect.flatMap(browser, freshPage)
          yield* signIn(page, origin, owner.user.email)
          const url = `${origin}/app/w/${workspace.id}/recommendations/${pending.id}/approve`
          for (const form of [{}, { csrf: "forged" }]) {
            const answer = yield* promise(() => page.request.post(url, { form, maxRedirects: 0 }))
            assert.strictEqual(answer.status(), 403)
          }
          const bulk = yield* promise(() =>
            page.request.post(`${origin}/app/w/${workspace.id}/recommendations/bulk`, {
              form: { action: "approve", id: pending.id },
              maxRedirects: 0
            })
          )
          assert.strictEqual(bulk.status(), 403)
          const key = yield* promise(() =>
            page.request.post(`${origin}/app/w/${workspace.id}/settings/api-keys`, {
              form: { name: "x", scope: "runs:read" },
              maxRedirects: 0
            })
          )
          assert.strictEqual(key.status(), 403)
          assert.strictEqual(yield* storedStatus(pending), "pending_approval")
          yield* promise(() => page.goto(url.replace("/approve", "")))
          yield* noSeriousViolations(page, "recommendation-pending")
          // With its token, the same page's reject (a reason is required) goes through.
          yield* promise(() => page.getByLabel("Reason").fill("Competitor dropped their price"))
          yield* promise(() => page.getByRole("button", { name: "Reject" }).click())
          assert.strictEqual(yield* promise(() => page.getByRole("status").textContent()), "Recommendation rejected.")
          assert.include(yield* promise(() => page.locator("main").textContent()), "Competitor dropped their price")
          assert.strictEqual(yield* storedStatus(pending), "rejected")
          // Signing out is a form with the token too; afterwards the console asks to sign in again.
          yield* promise(() => page.getByRole("button", { name: "Sign out" }).click())
          yield* promise(() => page.goto(`${origin}/app`))
          assert.strictEqual(yield* heading(page), "Sign in to Margin")
        }).pipe(Effect.scoped)
    )

    it.effect("another workspace's ids answer 404, and a person in two workspaces picks one", () =>
      Effect.gen(function* () {
        const origin = yield* ConsoleTestServer.origin
        const mine = yield* aWorkspaceWithOwner()
        const theirs = yield* aWorkspaceWithOwner()
        const foreign = yield* seedRecommendation(theirs.workspace, {
          status: "pending_approval",
          acceptedAt: 1,
          acceptedBy: "seed"
        })
        const second = yield* seedWorkspace({ name: "Second shop" })
        yield* addMember(second, mine.owner.user, "viewer")
        const { page, violations } = yield* Effect.flatMap(browser, freshPage)
        yield* signIn(page, origin, mine.owner.user.email)
        assert.strictEqual(yield* heading(page), "Your workspaces")
        yield* noSeriousViolations(page, "workspaces")

        const status = (path: string) => promise(() => page.request.get(`${origin}${path}`).then((r) => r.status()))
        assert.strictEqual(yield* status(`/app/w/${theirs.workspace.id}/recommendations`), 404)
        assert.strictEqual(yield* status(`/app/w/${mine.workspace.id}/recommendations/${foreign.id}`), 404)
        assert.strictEqual(yield* status(`/app/w/${theirs.workspace.id}/recommendations/${foreign.id}`), 404)
        assert.strictEqual(yield* status(`/app/w/not%00an-id/recommendations`), 404)
        const csrf = yield* promise(() => page.locator('input[name="csrf"]').first().inputValue())
        const approve = yield* promise(() =>
          page.request.post(`${origin}/app/w/${mine.workspace.id}/recommendations/${foreign.id}/approve`, {
            form: { csrf },
            maxRedirects: 0
          })
        )
        assert.strictEqual(approve.status(), 404)
        assert.strictEqual(yield* storedStatus(foreign), "pending_approval")
        yield* promise(() => page.goto(`${origin}/app/w/${theirs.workspace.id}/recommendations`))
        yield* noSeriousViolations(page, "not-found")
        assert.deepStrictEqual(violations, [])
      }).pipe(Effect.scoped)
    )
  })
})
