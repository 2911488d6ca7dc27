import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { afterAll, assert, layer } from "@effect/vitest"
import { aWorkspaceWithOwner } from "@margin/edge/testing/World"
import * as McpTestServer from "@margin/runtime/testing/McpTestServer"
import { pkce } from "@margin/runtime/testing/OAuthConsent"
import { Effect, Redacted } from "effect"
import Provider from "oidc-provider"
import { formPost, httpBrowser } from "./HttpBrowser.ts"
import { registerClient } from "./OAuthFlow.ts"

/**
 * Sign-in through an upstream OpenID Connect provider: `oidc-provider` (a real OpenID provider
 * library) runs in this test on 127.0.0.1 with its development login and consent pages; the
 * service is its confidential client. The pages of both are followed with plain HTTP.
 */

// The provider's address must be known before the service's settings: reserve it first.
let handle: ((request: IncomingMessage, response: ServerResponse) => void) | undefined
const idp = createServer((request, response) => {
  if (handle === undefined) response.writeHead(503).end()
  else handle(request, response)
})
await new Promise<void>((listening) => idp.listen(0, "127.0.0.1", () => listening()))
const address = idp.address()
const issuer = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
afterAll(() => new Promise<void>((closed) => idp.close(() => closed())))

const clientSecret = "margin-test-secret-margin-test-secret"

/** The first form of a page: its action and fields, `login` and `password` filled in. */
const formOf = (html: string, page: URL, email: string) => {
  const form = /<form\b[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html)
  if (form === null) return undefined
  const fields = new URLSearchParams()
  for (const input of (form[2] ?? "").matchAll(/<input\b([^>]*)>/g)) {
    const tag = input[1] ?? ""
    const name = /\bname="([^"]*)"/.exec(tag)?.[1]
    if (name === undefined) continue
    const value = /\bvalue="([^"]*)"/.exec(tag)?.[1] ?? ""
    fields.set(name, name === "login" ? email : name === "password" ? "any" : value)
  }
  return { action: new URL(form[1] ?? "", page), fields }
}

layer(
  McpTestServer.layer({
    oidc: { issuer, clientId: "margin", clientSecret: Redacted.make(clientSecret) }
  }),
  { timeout: "60 seconds" }
)("sign-in through an upstream OpenID Connect provider", (it) => {
  /** From the authorization request through the provider and back: the service's answer to the callback. */
  const throughProvider = (email: string, verified: boolean) =>
    Effect.gen(function* () {
      const origin = yield* McpTestServer.origin
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: "margin",
            client_secret: clientSecret,
            redirect_uris: [`${origin}/oauth/login/oidc/callback`],
            grant_types: ["authorization_code"],
            response_types: ["code"]
          }
        ],
        claims: { openid: ["sub"], email: ["email", "email_verified"] },
        conformIdTokenClaims: false,
        findAccount: (_context, id) => ({
          accountId: id,
          claims: () => ({ sub: id, email: id, email_verified: verified })
        }),
        features: { devInteractions: { enabled: true } }
      })
      handle = provider.callback()

      const clientId = yield* registerClient
      const authorize = new URL("/oauth/authorize", origin)
      for (const [name, value] of Object.entries({
        response_type: "code",
        client_id: clientId,
        redirect_uri: "http://127.0.0.1:33418/callback",
        code_challenge: pkce.challenge,
        code_challenge_method: "S256",
        resource: `${origin}/mcp`,
        state: "s1"
      })) {
        authorize.searchParams.set(name, value)
      }
      const go = httpBrowser()
      const signIn = yield* Effect.promise(() => go(authorize))
      const link = /href="(\/oauth\/login\/oidc\?[^"]*)"/.exec(signIn.html)?.[1]
      if (link === undefined) return assert.fail(`no identity provider link in ${signIn.html}`)

      // To the provider and through its login and consent pages, until it sends the browser back.
      let reply = yield* Effect.promise(() => go(new URL(link.replace(/&#38;/g, "&"), origin)))
      let page = new URL(link.replace(/&#38;/g, "&"), origin)
      for (
        let step = 0;
        step < 12 && !(reply.location?.href.startsWith(`${origin}/oauth/login/oidc/callback`) ?? false);
        step++
      ) {
        if (reply.location !== undefined) {
          page = reply.location
          reply = yield* Effect.promise(() => go(page))
          continue
        }
        const form = formOf(reply.html, page, email)
        if (form === undefined) return assert.fail(`stuck at ${page.href}: ${reply.status} ${reply.html.slice(0, 300)}`)
        page = form.action
        reply = yield* Effect.promise(() => go(form.action, formPost(form.fields)))
      }
      const back = reply.location
      if (back === undefined) return assert.fail("the provider never sent the browser back")
      const signedIn = yield* Effect.promise(() => go(back))
      return { signedIn, next: () => go(signedIn.location ?? new URL(origin)) }
    })

  it.effect("the provider's verified e-mail signs the user in; the consent page follows", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const { signedIn, next } = yield* throughProvider(owner.user.email, true)
      assert.strictEqual(signedIn.status, 303, signedIn.html)
      const consent = yield* Effect.promise(next)
      assert.strictEqual(consent.status, 200, consent.html)
      assert.include(consent.html, `Signed in as <strong>${owner.user.email}</strong>`)
    })
  )

  it.effect("an e-mail address the provider does not say is verified signs no one in", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const { signedIn } = yield* throughProvider(owner.user.email, false)
      assert.strictEqual(signedIn.status, 400)
      assert.include(signedIn.html, "Signing in with the identity provider failed")
    })
  )
})
