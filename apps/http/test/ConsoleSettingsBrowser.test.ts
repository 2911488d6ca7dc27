import { assert, describe, layer } from "@effect/vitest"
import { UserRepository } from "@margin/core/access/UserRepository"
import { DeletionRequestId, SupportSessionId } from "@margin/core/kernel/Ids"
import { aDeletionRequest, aSupportSession } from "@margin/core/testing/Fixtures"
import { DeletionRequestRepository } from "@margin/core/workspaces/DeletionRequestRepository"
import { SupportSessionRepository } from "@margin/core/workspaces/SupportSessionRepository"
import { WorkspaceRepository } from "@margin/core/workspaces/WorkspaceRepository"
import { aWorkspaceWithOwner, member, seedRecommendation } from "@margin/edge/testing/World"
import { heading, noSeriousViolations } from "@margin/runtime/testing/ConsolePageChecks"
import * as ConsoleTestServer from "@margin/runtime/testing/ConsoleTestServer"
import {
  browser,
  browserInstalled,
  executablePath,
  freshPage,
  mailedLink,
  promise,
  signIn
} from "@margin/runtime/testing/HeadlessChromium"
import { consentCode, pkce } from "@margin/runtime/testing/OAuthConsent"
import { Clock, Effect, Option } from "effect"
import type { Page } from "playwright-core"

if (!browserInstalled)
  console.log(`ConsoleSettingsBrowser.test.ts skipped: no browser at ${executablePath} (apt-get install chromium)`)

const redirectUri = "http://127.0.0.1:33418/callback"

const field = (json: unknown, name: string): string => {
  const value = Reflect.get(Object(json), name)
  return typeof value === "string" ? value : assert.fail(`no ${name} in ${JSON.stringify(json)}`)
}

/** An agent connected over OAuth as `clientName`: registered, consented to, its code redeemed. */
const connectAgent = (
  origin: string,
  clientName: string,
  owner: Parameters<typeof consentCode>[0]["user"],
  workspace: Parameters<typeof consentCode>[0]["workspace"]
) =>
  Effect.gen(function* () {
    const registered = yield* promise(() =>
      fetch(`${origin}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: [redirectUri], client_name: clientName })
      }).then((reply) => reply.json())
    )
    const clientId = field(registered, "client_id")
    const code = yield* consentCode({
      clientId,
      redirectUri,
      resource: `${origin}/mcp`,
      user: owner,
      workspace,
      scopes: ["recommendations:read"]
    })
    const tokens = yield* promise(() =>
      fetch(`${origin}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          client_id: clientId,
          code,
          redirect_uri: redirectUri,
          code_verifier: pkce.verifier
        }).toString()
      }).then((reply) => reply.json())
    )
    return { clientId, access: field(tokens, "access_token"), refresh: field(tokens, "refresh_token") }
  })

/** /mcp's GET: 405 once the token is admitted, 401 when it is not. */
const mcpStatus = (origin: string, token: string) =>
  promise(() =>
    fetch(`${origin}/mcp`, { headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" } }).then(
      (reply) => reply.status
    )
  )

const statusText = (page: Page) => promise(() => page.getByRole("status").textContent())

/** A form post from the page's own session, with its CSRF token (read from the sign-out form). */
const postAsPage = (page: Page, path: string, form: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const csrf = yield* promise(() => page.locator('form.sign-out input[name="csrf"]').inputValue())
    const origin = new URL(page.url()).origin
    const reply = yield* promise(() =>
      page.request.post(`${origin}${path}`, { form: { csrf, ...form }, maxRedirects: 0 })
    )
    return reply.status()
  })

describe.skipIf(!browserInstalled)("the console's settings in Chromium", () => {
  layer(ConsoleTestServer.layer(), { timeout: "120 seconds" })("signed in by e-mail link", (it) => {
    it.effect("an owner revokes a connected app; its MCP access and refresh tokens are refused at once", () =>
      Effect.gen(function* () {
        const origin = yield* ConsoleTestServer.origin
        const { workspace, owner } = yield* aWorkspaceWithOwner()
        const agent = yield* connectAgent(origin, "Nightly pricing agent", owner.user, workspace)
        assert.strictEqual(yield* mcpStatus(origin, agent.access), 405)
        const { page, violations } = yield* Effect.flatMap(browser, freshPage)
        yield* signIn(page, origin, owner.user.email, `/app/w/${workspace.id}/settings/connected-apps`)
        assert.strictEqual(yield* heading(page), "Connected apps")
        const row = page.getByRole("row", { name: /Nightly pricing agent/ })
        assert.include(yield* promise(() => row.textContent()), "recommendations:read")
        // The MCP call above is the grant's last use, shown to the minute (not "—").
        assert.notStrictEqual(yield* promise(() => row.locator("td").nth(3).textContent()), "—")
        yield* noSeriousViolations(page, "connected-apps")
        yield* promise(() => page.getByRole("button", { name: "Revoke Nightly pricing agent" }).click())
        assert.include(yield* statusText(page), "“Nightly pricing agent” disconnected")
        assert.strictEqual(yield* promise(() => page.getByRole("row", { name: /Nightly pricing agent/ }).count()), 0)
        assert.strictEqual(yield* mcpStatus(origin, agent.access), 401)
        const refreshed = yield* promise(() =>
          fetch(`${origin}/oauth/token`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({
              grant_type: "refresh_token",
              client_id: agent.clientId,
              refresh_token: agent.refresh
            }).toString()
          }).then((reply) => reply.status)
        )
        assert.strictEqual(refreshed, 400)
        assert.deepStrictEqual(violations, [])
      }).pipe(Effect.scoped)
    )

    it.effect("an owner invites an analyst, who signs in from the mail without approve, refused on the server", () =>
      Effect.gen(function* () {
        const origin = yield* ConsoleTestServer.origin
        const { workspace, owner } = yield* aWorkspaceWithOwner()
        const pending = yield* seedRecommendation(workspace, {
          status: "pending_approval",
          acceptedAt: 1,
          acceptedBy: "seed"
        })
        const { page, violations } = yield* Effect.flatMap(browser, freshPage)
        yield* signIn(page, origin, owner.user.email, `/app/w/${workspace.id}/settings/members`)
        assert.strictEqual(yield* heading(page), "Members")
        yield* noSeriousViolations(page, "members")
        const invited = `analyst-${workspace.id}@example.com`
        // Without the form's CSRF token the settings' actions are refused before their use case.
        const forged = yield* promise(() =>
          page.request.post(`${origin}/app/w/${workspace.id}/settings/members/invite`, {
            form: { email: invited, role: "admin" },
            maxRedirects: 0
          })
        )
        assert.strictEqual(forged.status(), 403)
        const forgedPolicy = yield* promise(() =>
          page.request.post(`${origin}/app/w/${workspace.id}/settings/policy`, {
            form: { csrf: "forged", target_margin: "0.5" },
            maxRedirects: 0
          })
        )
        assert.strictEqual(forgedPolicy.status(), 403)
        yield* promise(() => page.getByLabel("E-mail address").fill(invited))
        yield* promise(() => page.getByLabel("Role", { exact: true }).selectOption("analyst"))
        yield* promise(() => page.getByRole("button", { name: "Invite" }).click())
        assert.include(yield* statusText(page), `${invited} invited as analyst`)
        // The last owner cannot step down: a clear error, nothing changed.
        yield* promise(() => page.getByLabel(`Role of ${owner.user.email}`, { exact: true }).selectOption("admin"))
        yield* promise(() => page.getByRole("button", { name: `Change role of ${owner.user.email}` }).click())
        assert.include(
          yield* promise(() => page.locator("#members-error").textContent()),
          "last owner cannot be demoted"
        )
        yield* noSeriousViolations(page, "members-last-owner")

        // The invited analyst follows the mailed link into the workspace.
        const link = yield* mailedLink(invited, 0)
        const { page: theirs } = yield* Effect.flatMap(browser, freshPage)
        yield* promise(() => theirs.goto(link))
        yield* promise(() => theirs.getByRole("button", { name: `Continue as ${invited}` }).click())
        yield* promise(() => theirs.waitForURL((url) => url.pathname === `/app/w/${workspace.id}/recommendations`))
        assert.strictEqual(yield* promise(() => theirs.locator(".role").first().textContent()), "analyst")
        assert.strictEqual(
          yield* promise(() => theirs.getByRole("button", { name: `Approve ${pending.sku}` }).count()),
          0
        )
        assert.strictEqual(yield* promise(() => theirs.getByRole("link", { name: "Members" }).count()), 0)
        const approve = `/app/w/${workspace.id}/recommendations/${pending.id}/approve`
        assert.strictEqual(yield* postAsPage(theirs, approve), 403)
        assert.strictEqual(
          yield* postAsPage(theirs, `/app/w/${workspace.id}/settings/members/invite`, {
            email: "x@example.com",
            role: "viewer"
          }),
          403
        )
        const settings = yield* promise(() => theirs.goto(`${origin}/app/w/${workspace.id}/settings/members`))
        assert.strictEqual(settings?.status(), 403)
        assert.deepStrictEqual(violations, [])
      }).pipe(Effect.scoped)
    )

    it.effect("the pricing policy: an invalid value is shown beside its field, then a valid one is saved", () =>
      Effect.gen(function* () {
        const origin = yield* ConsoleTestServer.origin
        const { workspace, owner } = yield* aWorkspaceWithOwner()
        const { page, violations } = yield* Effect.flatMap(browser, freshPage)
        yield* signIn(page, origin, owner.user.email, `/app/w/${workspace.id}/settings/policy`)
        assert.strictEqual(yield* heading(page), "Pricing policy")
        yield* noSeriousViolations(page, "policy")
        yield* promise(() => page.getByLabel("Target margin").fill("1.5"))
        yield* promise(() => page.getByLabel("Default elasticity").fill("0.8"))
        yield* promise(() => page.getByRole("button", { name: "Save policy" }).click())
        assert.include(yield* promise(() => page.getByRole("alert").textContent()), "2 fields need a change")
        assert.strictEqual(
          yield* promise(() => page.locator("#policy-target_margin-error").textContent()),
          "a fraction from 0 to below 1, e.g. 0.35"
        )
        assert.strictEqual(yield* promise(() => page.getByLabel("Target margin").getAttribute("aria-invalid")), "true")
        assert.strictEqual(yield* promise(() => page.getByLabel("Target margin").inputValue()), "1.5")
        yield* noSeriousViolations(page, "policy-invalid")
        const stored = () =>
          Effect.map(
            WorkspaceRepository.use((workspaces) => workspaces.get(workspace.id)),
            (found) => Option.getOrThrow(found).pricingPolicy
          )
        assert.strictEqual((yield* stored()).targetMargin, 0.35)
        yield* promise(() => page.getByLabel("Target margin").fill("0.42"))
        yield* promise(() => page.getByLabel("Default elasticity").fill("-2"))
        yield* promise(() => page.getByLabel("Largest premium over a competitor's price").fill("none"))
        yield* promise(() => page.getByRole("button", { name: "Save policy" }).click())
        assert.strictEqual(yield* statusText(page), "Policy saved: the next runs use it.")
        const saved = yield* stored()
        assert.deepStrictEqual(
          [saved.targetMargin, saved.defaultElasticity, saved.maxPremiumOverCompetitor],
          [0.42, -2, null]
        )
        assert.strictEqual(yield* promise(() => page.getByLabel("Target margin").inputValue()), "0.42")
        assert.deepStrictEqual(violations, [])
      }).pipe(Effect.scoped)
    )

    it.effect("banners for support access and deletion; an unconfirmed address is confirmed from the mail", () =>
      Effect.gen(function* () {
        const origin = yield* ConsoleTestServer.origin
        const now = yield* Clock.currentTimeMillis
        const { workspace } = yield* aWorkspaceWithOwner()
        const admin = yield* member(workspace, "admin", { emailConfirmed: false })
        yield* SupportSessionRepository.use((sessions) =>
          sessions.open(
            aSupportSession({
              id: SupportSessionId.make(`sup_${workspace.id}`),
              workspaceId: workspace.id,
              startedAt: now - 60_000,
              expiresAt: now + 3_600_000
            })
          )
        )
        yield* DeletionRequestRepository.use((requests) =>
          requests.insert(
            aDeletionRequest({
              id: DeletionRequestId.make(`del_${workspace.id}`),
              userId: admin.user.id,
              scheduledAt: now,
              effectiveAt: now + 30 * 86_400_000
            })
          )
        )
        const { page, violations } = yield* Effect.flatMap(browser, freshPage)
        yield* signIn(page, origin, admin.user.email)
        const banners = page.getByRole("region", { name: "Workspace status" })
        const text = yield* promise(() => banners.textContent())
        assert.include(text, "Support access is open: support@margin.example")
        assert.include(text, "Your account is scheduled for deletion")
        assert.include(text, `Your e-mail address ${admin.user.email} is not confirmed`)
        yield* noSeriousViolations(page, "banners")
        yield* promise(() => banners.getByRole("link", { name: "Confirm it" }).click())
        assert.strictEqual(yield* heading(page), "Your e-mail address")
        assert.strictEqual(yield* promise(() => page.locator("#email-state").textContent()), "not confirmed")
        yield* promise(() => page.getByRole("button", { name: "Send a confirmation link" }).click())
        assert.include(yield* statusText(page), `A confirmation link is on its way to ${admin.user.email}`)
        yield* noSeriousViolations(page, "email")
        const confirmLink = yield* mailedLink(admin.user.email, 0)
        yield* promise(() => page.goto(confirmLink))
        assert.strictEqual(yield* heading(page), "Confirm your e-mail address")
        yield* promise(() => page.getByRole("button", { name: "Confirm my address" }).click())
        assert.strictEqual(yield* heading(page), "Address confirmed")
        const user = yield* UserRepository.use((users) => users.get(admin.user.id))
        assert.isTrue(Option.getOrThrow(user).emailConfirmed)
        yield* promise(() => page.goto(`${origin}/app/w/${workspace.id}/settings/email`))
        assert.strictEqual(yield* promise(() => page.locator("#email-state").textContent()), "confirmed")
        assert.notInclude(
          yield* promise(() => page.getByRole("region", { name: "Workspace status" }).textContent()),
          "not confirmed"
        )
        assert.deepStrictEqual(violations, [])
      }).pipe(Effect.scoped)
    )
  })
})
