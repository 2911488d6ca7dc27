import { assert, describe, layer } from "@effect/vitest"
import { SyncScheduleRepository } from "@margin/core/schedules/SyncScheduleRepository"
import { StoreSyncJobs } from "@margin/core/stores/StoreSyncJobs"
import { usd } from "@margin/core/testing/Fixtures"
import { ScriptedStoreCatalog } from "@margin/core/testing/ScriptedStoreCatalog"
import { acceptedShopifyToken } from "@margin/core/testing/ScriptedStoreConnectionCheck"
import { aWorkspaceWithOwner, member } from "@margin/edge/testing/World"
import * as ConsoleTestServer from "@margin/runtime/testing/ConsoleTestServer"
import { browser, browserInstalled, freshPage, promise, signIn } from "@margin/runtime/testing/HeadlessChromium"
import { Effect, Option } from "effect"

/** The console's Store settings page in Chromium (docs/console.md, "Settings: Store"). */

describe.skipIf(!browserInstalled)("the console's Store page in Chromium", () => {
  layer(ConsoleTestServer.layer(), { timeout: "120 seconds" })("signed in by e-mail link", (it) => {
    it.effect(
      "an owner connects the sandbox (a refused Shopify first), syncs now, sees the sync end, saves a schedule",
      () =>
        Effect.gen(function* () {
          const origin = yield* ConsoleTestServer.origin
          const { workspace, owner } = yield* aWorkspaceWithOwner({ store: false })
          yield* ScriptedStoreCatalog.use((store) =>
            store.put(workspace.id, [
              { updatedAt: 0, variant: { sku: "S-1", variantRef: "S-1", title: "Mug", currency: usd, price: "9.50" } },
              { updatedAt: 0, variant: { sku: "S-2", variantRef: "S-2", title: "Bowl", currency: usd, price: "4.00" } }
            ])
          )
          const { page, violations } = yield* Effect.flatMap(browser, freshPage)
          yield* signIn(page, origin, owner.user.email)
          yield* promise(() => page.getByRole("link", { name: "Store" }).click())
          yield* promise(() => page.waitForURL((url) => url.pathname.endsWith("/settings/store")))
          assert.strictEqual(yield* promise(() => page.getByRole("heading", { level: 1 }).textContent()), "Store")
          assert.strictEqual(yield* promise(() => page.getByRole("button", { name: "Sync now" }).count()), 0)

          // Shopify with a token Shopify refuses: a clear error, nothing stored, the shop kept in the form.
          yield* promise(() => page.getByLabel("Platform").selectOption("shopify"))
          yield* promise(() => page.getByLabel("Shopify: the shop's myshopify domain").fill("acme.myshopify.com"))
          yield* promise(() => page.getByLabel(/Admin API access token/).fill("shpat_wrong"))
          yield* promise(() => page.getByRole("button", { name: "Connect" }).click())
          assert.include(yield* promise(() => page.getByRole("alert").textContent()), "Shopify refused the connection")
          assert.strictEqual(
            yield* promise(() => page.getByLabel("Shopify: the shop's myshopify domain").inputValue()),
            "acme.myshopify.com"
          )
          assert.strictEqual(yield* promise(() => page.locator("#connection-status").count()), 0)
          // A shop that is not a myshopify domain is refused too.
          yield* promise(() => page.getByLabel("Shopify: the shop's myshopify domain").fill("acme.example.com"))
          yield* promise(() => page.getByLabel(/Admin API access token/).fill(acceptedShopifyToken))
          yield* promise(() => page.getByRole("button", { name: "Connect" }).click())
          assert.include(yield* promise(() => page.getByRole("alert").textContent()), "myshopify.com")
          // The sandbox store.
          yield* promise(() => page.getByLabel("Platform").selectOption("sandbox"))
          yield* promise(() => page.getByRole("button", { name: "Connect" }).click())
          yield* promise(() => page.waitForURL((url) => url.searchParams.get("done") === "connect"))
          assert.strictEqual(yield* promise(() => page.locator("#connection-status").textContent()), "connected")

          // Sync now: queued, then a worker does it and the page shows what it did.
          yield* promise(() => page.getByRole("button", { name: "Sync now" }).click())
          yield* promise(() => page.waitForURL((url) => url.searchParams.get("done") === "sync"))
          assert.include(yield* promise(() => page.getByRole("status").textContent()), "Sync started")
          assert.strictEqual(yield* promise(() => page.locator("#sync-state").getAttribute("data-status")), "queued")
          const done = yield* StoreSyncJobs.use((jobs) => jobs.executeNext("test-worker"))
          assert.deepStrictEqual(
            Option.map(done, (job) => job.status),
            Option.some("succeeded" as const)
          )
          yield* promise(() => page.reload())
          assert.strictEqual(yield* promise(() => page.locator("#sync-state").getAttribute("data-status")), "succeeded")
          assert.include(yield* promise(() => page.locator("#sync-state").textContent()), "Full read: 2 created")

          // A zone that does not exist is refused with the form kept; a good one is saved.
          yield* promise(() => page.getByLabel("Sync by itself").selectOption("weekly"))
          yield* promise(() => page.getByLabel("Day of the week (weekly)").selectOption("tuesday"))
          yield* promise(() => page.getByLabel("Hour (0 to 23)").fill("6"))
          yield* promise(() => page.getByLabel("Time zone (IANA, e.g. Europe/Berlin)").fill("Mars/Olympus"))
          yield* promise(() => page.getByRole("button", { name: "Save schedule" }).click())
          assert.include(yield* promise(() => page.getByRole("alert").textContent()), "not an IANA time zone")
          assert.strictEqual(yield* promise(() => page.getByLabel("Hour (0 to 23)").inputValue()), "6")
          yield* promise(() => page.getByLabel("Time zone (IANA, e.g. Europe/Berlin)").fill("Europe/Berlin"))
          yield* promise(() => page.getByRole("button", { name: "Save schedule" }).click())
          yield* promise(() => page.waitForURL((url) => url.searchParams.get("done") === "schedule"))
          assert.strictEqual(yield* promise(() => page.getByRole("status").textContent()), "Schedule saved.")
          assert.include(yield* promise(() => page.locator("#next-slot").textContent()), "Europe/Berlin 06:00")
          const saved = yield* SyncScheduleRepository.use((schedules) => schedules.get(workspace.id))
          assert.deepStrictEqual(
            Option.map(saved, (s) => [s.cadence, s.weekday, s.hour, s.timeZone, s.runAfterSync, s.updatedBy]),
            Option.some(["weekly", "tuesday", 6, "Europe/Berlin", true, `user:${owner.user.id}`])
          )
          assert.deepStrictEqual(violations, [])
        }).pipe(Effect.scoped)
    )

    it.effect("an approver has no Store page", () =>
      Effect.gen(function* () {
        const origin = yield* ConsoleTestServer.origin
        const { workspace } = yield* aWorkspaceWithOwner()
        const approver = yield* member(workspace, "approver")
        const { page } = yield* Effect.flatMap(browser, freshPage)
        yield* signIn(page, origin, approver.user.email)
        assert.strictEqual(yield* promise(() => page.getByRole("link", { name: "Store" }).count()), 0)
        const reply = yield* promise(() => page.goto(`${origin}/app/w/${workspace.id}/settings/store`))
        assert.strictEqual(reply?.status(), 403)
      }).pipe(Effect.scoped)
    )
  })
})
