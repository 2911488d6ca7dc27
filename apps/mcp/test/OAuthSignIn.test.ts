import { assert, layer } from "@effect/vitest"
import { aWorkspaceWithOwner, member } from "@margin/edge/testing/World"
import * as McpTestServer from "@margin/runtime/testing/McpTestServer"
import { Effect } from "effect"
import { mailCount, mailedLink } from "./ConsentByHttp.ts"
import { authorizePath, redirectUri, registerClient } from "./OAuthFlow.ts"
import { awayFromWindowEdge } from "./RateWindow.ts"
import { cookiesOf, headerOf, type RawHttpReply, rawHttp } from "./RawHttp.ts"

const form = "application/x-www-form-urlencoded"

const get = (path: string, cookie = "", localAddress?: string) =>
  rawHttp({
    method: "GET",
    path,
    headers: cookie === "" ? {} : { cookie },
    ...(localAddress === undefined ? {} : { localAddress })
  })

const post = (path: string, fields: URLSearchParams, cookie = "", localAddress?: string) =>
  rawHttp({
    method: "POST",
    path,
    headers: { "content-type": form, ...(cookie === "" ? {} : { cookie }) },
    body: fields.toString(),
    ...(localAddress === undefined ? {} : { localAddress })
  })

/** Every hidden field of a page, as its form posts them. */
const hiddenFields = (html: string): URLSearchParams =>
  new URLSearchParams(
    Array.from(html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g), (match): [string, string] => [
      match[1] ?? "",
      (match[2] ?? "").replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    ])
  )

/** A browser's first visit of the authorization request: its session cookie and the sign-in form's fields. */
const visit = (path: string, localAddress?: string) =>
  Effect.gen(function* () {
    const page = yield* get(path, "", localAddress)
    assert.strictEqual(page.status, 200, page.text)
    return { cookie: cookiesOf(page), fields: hiddenFields(page.text) }
  })

const linkPath = (link: URL) => `${link.pathname}${link.search}`

/** A sign-in link mailed to `email`, asked for from a browser of its own. */
const linkFor = (path: string, email: string) =>
  Effect.gen(function* () {
    const browser = yield* visit(path)
    const before = yield* mailCount(email)
    const fields = new URLSearchParams(browser.fields)
    fields.set("email", email)
    assert.strictEqual((yield* post("/oauth/login", fields, browser.cookie)).status, 200)
    return { link: yield* mailedLink(email, before), browser }
  })

/** A browser signed in as `email` by the e-mail link, confirmed: its cookie, and the consent page it then gets. */
const signedIn = (path: string, email: string) =>
  Effect.gen(function* () {
    const { link, browser: first } = yield* linkFor(path, email)
    const page = yield* get(linkPath(link), first.cookie)
    assert.strictEqual(page.status, 200, page.text)
    const confirmed = yield* post("/oauth/login/link", hiddenFields(page.text), first.cookie)
    assert.strictEqual(confirmed.status, 303, confirmed.text)
    const cookie = cookiesOf(confirmed)
    const consent = yield* get(path, cookie)
    assert.include(consent.text, `Signed in as <strong>${email}</strong>`)
    return { cookie, consent }
  })

const consentFields = (consent: RawHttpReply, overrides: Readonly<Record<string, string>>) => {
  const fields = hiddenFields(consent.text)
  const workspace = /name="workspace_id" id="workspace-0" value="([^"]*)"/.exec(consent.text)?.[1]
  if (workspace !== undefined) fields.set("workspace_id", workspace)
  fields.set("grant_scope", "runs:read")
  fields.set("decision", "allow")
  for (const [name, value] of Object.entries(overrides)) fields.set(name, value)
  return fields
}

layer(McpTestServer.layer())("the sign-in session: CSRF and login CSRF", (it) => {
  it.effect(
    "the consent's CSRF token is the signed-in session's: a planted cookie or another session's token is 403",
    () =>
      Effect.gen(function* () {
        const origin = yield* McpTestServer.origin
        const { owner } = yield* aWorkspaceWithOwner()
        const path = authorizePath(yield* registerClient, `${origin}/mcp`)
        const victim = yield* signedIn(path, owner.user.email)
        const planted = "p".repeat(43)
        const withPlanted = yield* post(
          "/oauth/authorize",
          consentFields(victim.consent, { csrf: planted }),
          `${victim.cookie}; margin_csrf=${planted}`
        )
        assert.strictEqual(withPlanted.status, 403, withPlanted.text)
        const attacker = yield* visit(path)
        const otherToken = attacker.fields.get("csrf") ?? assert.fail("no csrf field")
        const withOther = yield* post(
          "/oauth/authorize",
          consentFields(victim.consent, { csrf: otherToken }),
          victim.cookie
        )
        assert.strictEqual(withOther.status, 403, withOther.text)
        // The attacker's own (signed-out) session with its own token consents to nothing.
        const own = yield* post(
          "/oauth/authorize",
          consentFields(victim.consent, { csrf: otherToken }),
          attacker.cookie
        )
        assert.strictEqual(own.status, 401, own.text)
        const genuine = yield* post("/oauth/authorize", consentFields(victim.consent, {}), victim.cookie)
        assert.strictEqual(genuine.status, 302, genuine.text)
        assert.isTrue(headerOf(genuine, "location").startsWith(`${redirectUri}?code=`))
      })
  )

  it.effect("a link someone else asked for does not switch the browser: it asks, and a forged post is 403", () =>
    Effect.gen(function* () {
      const origin = yield* McpTestServer.origin
      const { owner } = yield* aWorkspaceWithOwner()
      const { owner: other } = yield* aWorkspaceWithOwner()
      const path = authorizePath(yield* registerClient, `${origin}/mcp`)
      const victim = yield* signedIn(path, owner.user.email)
      const attacker = yield* linkFor(path, other.user.email)

      // The victim opens the attacker's link: a page asking, naming both accounts; nothing changes.
      const opened = yield* get(linkPath(attacker.link), victim.cookie)
      assert.strictEqual(opened.status, 200, opened.text)
      assert.include(opened.text, `Continue as ${other.user.email}`)
      assert.include(opened.text, `signed in as <strong>${owner.user.email}</strong>`)
      assert.strictEqual(headerOf(opened, "set-cookie"), "")
      assert.include((yield* get(path, victim.cookie)).text, `Signed in as <strong>${owner.user.email}</strong>`)

      // The attacker's page posts the confirmation itself: its CSRF token is not the victim's session's.
      const forged = hiddenFields(opened.text)
      forged.set("csrf", attacker.browser.fields.get("csrf") ?? "")
      const posted = yield* post("/oauth/login/link", forged, victim.cookie)
      assert.strictEqual(posted.status, 403, posted.text)
      assert.include((yield* get(path, victim.cookie)).text, `Signed in as <strong>${owner.user.email}</strong>`)
    })
  )
})

layer(McpTestServer.layer({ publicUrl: "https://margin.example.com" }))("over https", (it) => {
  it.effect("the session cookie is __Host-: Secure, path /", () =>
    Effect.gen(function* () {
      const path = authorizePath(yield* registerClient, "https://margin.example.com/mcp")
      const page = yield* get(path)
      const cookie = headerOf(page, "set-cookie")
      assert.match(cookie, /^__Host-margin_session=/)
      assert.include(cookie, "Secure")
      assert.include(cookie, "Path=/;")
      assert.notInclude(cookie, "Domain")
    })
  )
})

layer(McpTestServer.layer({ rateLimit: 3 }), { excludeTestServices: true })("the sign-in budget", (it) => {
  it.effect("per address and per e-mail, counted alike for known and unknown addresses, answered alike", () =>
    Effect.gen(function* () {
      yield* awayFromWindowEdge
      const origin = yield* McpTestServer.origin
      const { owner } = yield* aWorkspaceWithOwner()
      const path = authorizePath(yield* registerClient, `${origin}/mcp`)
      const ask = (email: string, localAddress: string) =>
        Effect.gen(function* () {
          const browser = yield* visit(path, localAddress)
          const fields = new URLSearchParams(browser.fields)
          fields.set("email", email)
          return yield* post("/oauth/login", fields, browser.cookie, localAddress)
        })
      // One address, four e-mails (known and unknown mixed): the fourth is over the address's budget.
      const fromOne = [
        yield* ask(owner.user.email, "127.0.0.11"),
        yield* ask("nobody@example.com", "127.0.0.11"),
        yield* ask("nobody-else@example.com", "127.0.0.11"),
        yield* ask(owner.user.email, "127.0.0.11")
      ]
      assert.deepStrictEqual(
        fromOne.map((reply) => reply.status),
        [200, 200, 200, 429]
      )
      assert.isString(fromOne[3]?.headers["retry-after"])
      // Known and unknown: the same page, the same headers.
      assert.strictEqual(fromOne[0]?.text, fromOne[1]?.text)
      assert.deepStrictEqual(
        Object.keys(fromOne[0]?.headers ?? {}).sort(),
        Object.keys(fromOne[1]?.headers ?? {}).sort()
      )
      // One e-mail, four addresses: the fourth is over the e-mail's budget, known or not (and in any case).
      const known = yield* member((yield* aWorkspaceWithOwner()).workspace, "analyst")
      for (const [email, net] of [
        ["ghost@example.com", "127.0.0.2"],
        [known.user.email.toUpperCase(), "127.0.0.3"]
      ] as const) {
        const statuses: Array<number> = []
        for (const host of [1, 2, 3, 4]) statuses.push((yield* ask(email, `${net}${host}`)).status)
        assert.deepStrictEqual(statuses, [200, 200, 200, 429], email)
      }
    })
  )
})

layer(McpTestServer.layer(), { excludeTestServices: true })("the sign-in budget per e-mail in one process", (it) => {
  it.effect("at most 5 links a minute for one e-mail address, however many addresses ask", () =>
    Effect.gen(function* () {
      yield* awayFromWindowEdge
      const origin = yield* McpTestServer.origin
      const path = authorizePath(yield* registerClient, `${origin}/mcp`)
      const statuses: Array<number> = []
      for (const host of [1, 2, 3, 4, 5, 6, 7]) {
        const browser = yield* visit(path, `127.0.0.4${host}`)
        const fields = new URLSearchParams(browser.fields)
        fields.set("email", "Target@Example.com")
        statuses.push((yield* post("/oauth/login", fields, browser.cookie, `127.0.0.4${host}`)).status)
      }
      assert.deepStrictEqual(statuses, [200, 200, 200, 200, 200, 429, 429])
    })
  )
})
