import { assert, describe, layer } from "@effect/vitest"
import { AlertRepository } from "@margin/core/alerts/AlertRepository"
import type { AlertId, WorkspaceId } from "@margin/core/kernel/Ids"
import { MemoryStore } from "@margin/core/memory/MemoryStore"
import { aWorkspaceWithOwner, member, seedAlert, seedItem, seedRecommendation } from "@margin/edge/testing/World"
import { heading, noSeriousViolations, postAsPage } from "@margin/runtime/testing/ConsolePageChecks"
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
  console.log(`ConsoleOpsBrowser.test.ts skipped: no browser at ${executablePath} (apt-get install chromium)`)

const storePrice = (workspaceId: WorkspaceId, variant: string | null) =>
  MemoryStore.use((store) => store.priceOf(workspaceId, variant ?? "")).pipe(Effect.map(Option.getOrNull))

const storedAlertStatus = (workspaceId: WorkspaceId, id: AlertId) =>
  AlertRepository.use((alerts) => alerts.get(workspaceId, id)).pipe(
    Effect.map((found) => Option.getOrThrow(found).status)
  )

describe.skipIf(!browserInstalled)("the console's what changed, runs and alerts in Chromium", () => {
  layer(ConsoleTestServer.layer(), { timeout: "120 seconds" })("signed in by e-mail link", (it) => {
    it.effect("an owner undoes an applied price change and sees the old price written back", () =>
      Effect.gen(function* () {
        const origin = yield* ConsoleTestServer.origin
        const { workspace, owner } = yield* aWorkspaceWithOwner()
        const item = yield* seedItem(workspace, { price: 2500 })
        const pending = yield* seedRecommendation(workspace, {
          itemId: item.id,
          sku: item.sku,
          currentPrice: 2500,
          recommendedPrice: 2790,
          status: "pending_approval",
          acceptedAt: 1,
          acceptedBy: "seed"
        })
        const { page, violations } = yield* Effect.flatMap(browser, freshPage)
        yield* signIn(page, origin, owner.user.email, `/app/w/${workspace.id}/recommendations/${pending.id}`)
        yield* promise(() => page.getByRole("button", { name: "Approve and write the price back" }).click())
        yield* promise(() => page.locator('#write-back-state[data-status="applied"]').waitFor({ timeout: 10_000 }))
        assert.strictEqual(yield* storePrice(workspace.id, item.storeVariantRef), 2790)

        yield* promise(() => page.getByRole("link", { name: "What changed" }).click())
        assert.strictEqual(yield* heading(page), "What changed")
        const row = page.getByRole("row", { name: new RegExp(item.sku) })
        assert.include(yield* promise(() => row.textContent()), "25.00 USD → 27.90 USD")
        assert.include(yield* promise(() => row.textContent()), `user:${owner.user.id}`)
        yield* noSeriousViolations(page, "changes")

        yield* promise(() => page.getByRole("button", { name: `Undo ${item.sku}: back to 25.00 USD` }).click())
        assert.strictEqual(
          yield* promise(() => page.getByRole("status").textContent()),
          "Undone: the previous price is written back to the store."
        )
        assert.strictEqual(yield* storePrice(workspace.id, item.storeVariantRef), 2500)
        assert.match(
          (yield* promise(() => page.getByRole("row", { name: new RegExp(item.sku) }).textContent())) ?? "",
          new RegExp(`Undo by user:${owner.user.id}, .*applied`)
        )
        yield* noSeriousViolations(page, "changes-undone")

        // A second undo (a stale form) is refused with its reason, and writes nothing.
        const again = yield* postAsPage(page, `${origin}/app/w/${workspace.id}/changes/${pending.id}/undo`)
        assert.strictEqual(again.status(), 409)
        assert.include(yield* promise(() => again.text()), "it was already undone")
        assert.strictEqual(yield* storePrice(workspace.id, item.storeVariantRef), 2500)
        assert.deepStrictEqual(violations, [])
      }).pipe(Effect.scoped)
    )

    it.effect("an analyst starts a run over a tag and sees its progress reach done, then the history", () =>
      Effect.gen(function* () {
        const origin = yield* ConsoleTestServer.origin
        const { workspace } = yield* aWorkspaceWithOwner()
        const analyst = yield* member(workspace, "analyst")
        for (const price of [1000, 2000, 3000]) yield* seedItem(workspace, { price, cost: 600, tags: ["summer"] })
        yield* seedItem(workspace, { price: 4000, cost: 600, tags: ["winter"] })
        const { page, violations } = yield* Effect.flatMap(browser, freshPage)
        yield* signIn(page, origin, analyst.user.email, `/app/w/${workspace.id}/runs`)
        assert.strictEqual(yield* heading(page), "Runs")
        yield* noSeriousViolations(page, "runs-empty")

        yield* promise(() => page.getByLabel("Tags").fill("summer"))
        yield* promise(() => page.getByRole("button", { name: "Start a run" }).click())
        yield* promise(() => page.waitForURL((url) => /\/runs\/run_/.test(url.pathname)))
        assert.match((yield* heading(page)) ?? "", /^Run run_/)
        // The page follows the run (live.js) until it is done.
        yield* promise(() => page.locator('#run-progress[data-status="succeeded"]').waitFor({ timeout: 30_000 }))
        const bar = page.locator("#run-progress-bar")
        assert.strictEqual(yield* promise(() => bar.getAttribute("max")), "3")
        assert.strictEqual(yield* promise(() => bar.getAttribute("value")), "3")
        assert.include(yield* promise(() => page.locator("#run-progress").textContent()), "3 of 3 items analysed")
        yield* noSeriousViolations(page, "run")

        yield* promise(() => page.getByRole("link", { name: "← All runs" }).click())
        const cells = yield* promise(() =>
          page.locator("#run-history tbody tr").first().locator("td").allTextContents()
        )
        assert.deepStrictEqual([cells[0], cells[1], cells[2]], ["succeeded", "summer", "3 / 3"])
        yield* noSeriousViolations(page, "runs")
        assert.deepStrictEqual(violations, [])
      }).pipe(Effect.scoped)
    )

    it.effect("a viewer sees changes, runs and alerts without a button, and the server refuses their posts", () =>
      Effect.gen(function* () {
        const origin = yield* ConsoleTestServer.origin
        const { workspace } = yield* aWorkspaceWithOwner()
        const viewer = yield* member(workspace, "viewer")
        const alert = yield* seedAlert(workspace, { status: "open" })
        const recommendation = yield* seedRecommendation(workspace, { status: "new" })
        const { page } = yield* Effect.flatMap(browser, freshPage)
        yield* signIn(page, origin, viewer.user.email, `/app/w/${workspace.id}/changes`)
        assert.strictEqual(yield* heading(page), "What changed")
        assert.strictEqual(yield* promise(() => page.getByRole("button", { name: /Undo/ }).count()), 0)
        const undo = yield* postAsPage(page, `${origin}/app/w/${workspace.id}/changes/${recommendation.id}/undo`)
        assert.strictEqual(undo.status(), 403)
        yield* promise(() => page.goto(`${origin}/app/w/${workspace.id}/runs`))
        assert.strictEqual(yield* promise(() => page.getByRole("button", { name: "Start a run" }).count()), 0)
        const post = (path: string, form: Record<string, string>) =>
          Effect.map(postAsPage(page, `${origin}/app/w/${workspace.id}${path}`, form), (answer) => answer.status())
        assert.strictEqual(yield* post("/runs", { tags: "" }), 403)
        yield* promise(() => page.goto(`${origin}/app/w/${workspace.id}/alerts`))
        assert.strictEqual(yield* promise(() => page.getByRole("button", { name: /Resolve|Snooze/ }).count()), 0)
        assert.strictEqual(yield* post(`/alerts/${alert.id}/resolve`, {}), 403)
        assert.strictEqual(yield* storedAlertStatus(workspace.id, alert.id), "open")
        // Without the session's token: 403 before anything else.
        const forged = yield* promise(() =>
          page.request
            .post(`${origin}/app/w/${workspace.id}/runs`, { form: { tags: "" }, maxRedirects: 0 })
            .then((answer) => answer.status())
        )
        assert.strictEqual(forged, 403)
      }).pipe(Effect.scoped)
    )

    it.effect("an owner snoozes an alert with a date and a reason, resolves another, and filters them", () =>
      Effect.gen(function* () {
        const origin = yield* ConsoleTestServer.origin
        const { workspace, owner } = yield* aWorkspaceWithOwner()
        const toSnooze = yield* seedAlert(workspace, {
          status: "open",
          kind: "missing_cost",
          severity: "warning",
          message: "SKU-1 has no cost."
        })
        const toResolve = yield* seedAlert(workspace, {
          status: "open",
          kind: "negative_margin",
          severity: "critical",
          message: "SKU-2 sells below its cost."
        })
        const { page, violations } = yield* Effect.flatMap(browser, freshPage)
        yield* signIn(page, origin, owner.user.email, `/app/w/${workspace.id}/alerts`)
        assert.strictEqual(yield* heading(page), "Alerts")
        yield* noSeriousViolations(page, "alerts")

        const snoozed = page.locator(`#alert-${toSnooze.id}`)
        yield* promise(() => snoozed.getByLabel("Snooze until").fill("2030-01-15"))
        yield* promise(() => snoozed.getByLabel("Reason").fill("Supplier sends costs next week"))
        yield* promise(() => snoozed.getByRole("button", { name: `Snooze alert ${toSnooze.id}` }).click())
        assert.strictEqual(yield* promise(() => page.getByRole("status").textContent()), "Alert snoozed.")
        assert.include(
          yield* promise(() => page.locator(`#alert-${toSnooze.id}`).textContent()),
          "snoozed until 2030-01-15 00:00 UTC: Supplier sends costs next week"
        )
        assert.strictEqual(yield* storedAlertStatus(workspace.id, toSnooze.id), "snoozed")

        yield* promise(() => page.getByRole("button", { name: `Resolve alert ${toResolve.id}` }).click())
        assert.strictEqual(yield* promise(() => page.getByRole("status").textContent()), "Alert resolved.")
        assert.strictEqual(yield* storedAlertStatus(workspace.id, toResolve.id), "resolved")

        // A snooze without a reason is refused by the entry's own rules, with what to fix.
        const noDate = yield* postAsPage(page, `${origin}/app/w/${workspace.id}/alerts/${toSnooze.id}/snooze`, {
          snooze_until: "not a date",
          reason: "x"
        })
        assert.strictEqual(noDate.status(), 400)
        assert.include(yield* promise(() => noDate.text()), "snooze_until")

        yield* promise(() => page.getByLabel("Status").selectOption("resolved"))
        yield* promise(() => page.getByRole("button", { name: "Filter" }).click())
        assert.strictEqual(yield* promise(() => page.locator("li.alert").count()), 1)
        assert.include(yield* promise(() => page.locator("li.alert").textContent()), "SKU-2 sells below its cost.")
        yield* noSeriousViolations(page, "alerts-resolved")
        assert.deepStrictEqual(violations, [])
      }).pipe(Effect.scoped)
    )
  })
})
