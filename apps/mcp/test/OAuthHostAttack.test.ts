import { assert, layer } from "@effect/vitest"
import { MemoryOutbox } from "@margin/core/memory/MemoryMailer"
import { aWorkspaceWithOwner } from "@margin/edge/testing/World"
import * as McpTestServer from "@margin/runtime/testing/McpTestServer"
import { Effect, Schedule } from "effect"
import { authorizePath, registerClient } from "./OAuthFlow.ts"
import { cookiesOf, headerOf, hiddenField, type RawHttpReply, rawHttp } from "./RawHttp.ts"

const publicUrl = "https://margin.example.com"

/** What an attacker puts in Host: another name, a userinfo trick, and quotes that would add challenge parameters. */
const foreignHosts = (port: string) => [
  "attacker.example",
  `127.0.0.1:${port}@evil.example`,
  `a", error="insufficient_scope", x="`,
  "localhost.evil.example"
]

/** The sign-in form as a browser got it from `host`: its cookies and fields, for posting it again under any Host. */
const signInForm = (host: string, path: string) =>
  Effect.gen(function* () {
    const page = yield* rawHttp({ method: "GET", path, headers: { host } })
    assert.strictEqual(page.status, 200, page.text)
    const csrf = hiddenField(page.text, "csrf") ?? assert.fail("no csrf field")
    const returnTo = hiddenField(page.text, "return_to") ?? assert.fail("no return_to field")
    return { cookie: cookiesOf(page), csrf, returnTo }
  })

const postSignIn = (host: string, form: { cookie: string; csrf: string; returnTo: string }, email: string) =>
  rawHttp({
    method: "POST",
    path: "/oauth/login",
    headers: { host, cookie: form.cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf: form.csrf, return_to: form.returnTo, email }).toString()
  })

const mailsTo = (email: string) =>
  Effect.map(
    Effect.flatMap(MemoryOutbox, (outbox) => outbox.sent),
    (sent) => sent.filter((message) => message.to === email)
  )

/** The mail is sent beside the answer: wait for it (up to a second). */
const mailTo = (email: string) =>
  mailsTo(email).pipe(
    Effect.flatMap((mails) => (mails.length > 0 ? Effect.succeed(mails) : Effect.fail("none yet"))),
    Effect.retry({ schedule: Schedule.spaced("20 millis"), times: 50 }),
    Effect.orElseSucceed(() => [])
  )

const linkIn = (text: string): string => /https?:\/\/\S+/.exec(text)?.[0] ?? assert.fail(`no link in ${text}`)

const expectNoForeignHost = (reply: RawHttpReply, host: string) => {
  for (const text of [reply.text, headerOf(reply, "www-authenticate"), headerOf(reply, "location")]) {
    assert.notInclude(text, host)
    assert.notInclude(text, "evil.example")
    assert.notInclude(text, "attacker.example")
    assert.notInclude(text, "insufficient_scope")
  }
}

layer(McpTestServer.layer())("without MCP_PUBLIC_URL: only a loopback Host names the server", (it) => {
  it.effect("a foreign Host gets no sign-in mail, no metadata, no challenge URL and no redirect", () =>
    Effect.gen(function* () {
      const origin = yield* McpTestServer.origin
      const own = new URL(origin).host
      const { owner } = yield* aWorkspaceWithOwner()
      const victim = owner.user.email
      const clientId = yield* registerClient
      const path = authorizePath(clientId, `${origin}/mcp`)
      const form = yield* signInForm(own, path)

      for (const host of foreignHosts(new URL(origin).port)) {
        const sent = yield* postSignIn(host, form, victim)
        assert.strictEqual(sent.status, 400, `${host}: ${sent.text}`)
        assert.include(sent.text, "MCP_PUBLIC_URL")
        for (const metadata of [
          "/.well-known/oauth-authorization-server",
          "/.well-known/oauth-protected-resource/mcp"
        ]) {
          const reply = yield* rawHttp({ method: "GET", path: metadata, headers: { host } })
          assert.strictEqual(reply.status, 400, `${host} ${metadata}: ${reply.text}`)
          expectNoForeignHost(reply, host)
        }
        const noToken = yield* rawHttp({ method: "POST", path: "/mcp", headers: { host }, body: "{}" })
        assert.strictEqual(noToken.status, 401)
        assert.strictEqual(
          headerOf(noToken, "www-authenticate"),
          `Bearer scope="runs:read recommendations:read alerts:read catalog:read reports:read workspace:read"`
        )
        const badToken = yield* rawHttp({
          method: "POST",
          path: "/mcp",
          headers: { host, authorization: "Bearer mat_stolen" },
          body: "{}"
        })
        assert.strictEqual(
          headerOf(badToken, "www-authenticate"),
          `Bearer scope="runs:read recommendations:read alerts:read catalog:read reports:read workspace:read", error="invalid_token"`
        )
        const authorize = yield* rawHttp({ method: "GET", path, headers: { host } })
        assert.strictEqual(authorize.status, 400, authorize.text)
        expectNoForeignHost(authorize, host)
      }
      // The outbox never got a link for the victim from any of them.
      assert.deepStrictEqual(yield* mailsTo(victim), [])

      // From the server's own loopback name, the link is the server's.
      assert.strictEqual((yield* postSignIn(own, form, victim)).status, 200)
      const [mail] = yield* mailTo(victim)
      assert.isTrue(linkIn(mail?.text ?? "").startsWith(`${origin}/oauth/login/link?`), mail?.text)
      const metadata = yield* rawHttp({
        method: "GET",
        path: "/.well-known/oauth-authorization-server",
        headers: { host: own }
      })
      assert.strictEqual(JSON.parse(metadata.text).issuer, origin)
    })
  )
})

layer(McpTestServer.layer({ publicUrl }))("with MCP_PUBLIC_URL: every URL is the configured origin", (it) => {
  it.effect("whatever the Host, the mail link, metadata, issuer and challenge name MCP_PUBLIC_URL", () =>
    Effect.gen(function* () {
      const origin = yield* McpTestServer.origin
      const { owner } = yield* aWorkspaceWithOwner()
      const clientId = yield* registerClient
      const path = authorizePath(clientId, `${publicUrl}/mcp`)
      for (const host of foreignHosts(new URL(origin).port)) {
        const form = yield* signInForm(host, path)
        assert.strictEqual((yield* postSignIn(host, form, owner.user.email)).status, 200)
        const metadata = yield* rawHttp({
          method: "GET",
          path: "/.well-known/oauth-authorization-server",
          headers: { host }
        })
        assert.strictEqual(JSON.parse(metadata.text).issuer, publicUrl)
        assert.isTrue(JSON.parse(metadata.text).authorization_response_iss_parameter_supported)
        expectNoForeignHost(metadata, host)
        const resource = yield* rawHttp({
          method: "GET",
          path: "/.well-known/oauth-protected-resource/mcp",
          headers: { host }
        })
        assert.strictEqual(JSON.parse(resource.text).resource, `${publicUrl}/mcp`)
        const noToken = yield* rawHttp({ method: "POST", path: "/mcp", headers: { host }, body: "{}" })
        assert.strictEqual(
          headerOf(noToken, "www-authenticate"),
          `Bearer resource_metadata="${publicUrl}/.well-known/oauth-protected-resource/mcp", scope="runs:read recommendations:read alerts:read catalog:read reports:read workspace:read"`
        )
      }
      const mails = yield* mailTo(owner.user.email)
      assert.isAbove(mails.length, 0)
      for (const mail of mails) assert.isTrue(linkIn(mail.text).startsWith(`${publicUrl}/oauth/login/link?`), mail.text)
    })
  )
})
