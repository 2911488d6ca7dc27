import { assert, layer } from "@effect/vitest"
import { UserRepository } from "@margin/core/access/UserRepository"
import { operationCatalogue } from "@margin/core/operations/OperationCatalogue"
import { aWorkspaceWithOwner, issueToken, member } from "@margin/edge/testing/World"
import { connect } from "@margin/runtime/testing/AgentClient"
import * as McpTestServer from "@margin/runtime/testing/McpTestServer"
import { pkce } from "@margin/runtime/testing/OAuthConsent"
import { Clock, Effect } from "effect"
import { consentByHttp, followLink, signInLink } from "./ConsentByHttp.ts"
import { httpBrowser } from "./HttpBrowser.ts"
import {
  authorizePath,
  consentCode,
  jsonField,
  postForm,
  redeem,
  redirectUri,
  registerClient,
  stringField
} from "./OAuthFlow.ts"
import { awayFromWindowEdge } from "./RateWindow.ts"
import { initialize, post, request } from "./RawMcp.ts"

layer(McpTestServer.layer())("the OAuth authorization server of /mcp", (it) => {
  it.effect("RFC 8414 metadata, linked from the protected-resource metadata", () =>
    Effect.gen(function* () {
      const origin = yield* McpTestServer.origin
      const resource = yield* request("GET", "/.well-known/oauth-protected-resource/mcp")
      assert.deepStrictEqual(jsonField(resource, "authorization_servers"), [origin])
      const metadata = yield* request("GET", "/.well-known/oauth-authorization-server")
      assert.strictEqual(metadata.status, 200)
      assert.deepInclude(Object(metadata.json), {
        issuer: origin,
        authorization_endpoint: `${origin}/oauth/authorize`,
        token_endpoint: `${origin}/oauth/token`,
        registration_endpoint: `${origin}/oauth/register`,
        revocation_endpoint: `${origin}/oauth/revoke`
      })
      assert.deepStrictEqual(jsonField(metadata, "code_challenge_methods_supported"), ["S256"])
    })
  )

  it.effect("registration (RFC 7591): a public client; unacceptable redirect URIs and bad metadata are 400", () =>
    Effect.gen(function* () {
      const ok = yield* request("POST", "/oauth/register", { body: { client_name: "A", redirect_uris: [redirectUri] } })
      assert.strictEqual(ok.status, 201, ok.text)
      assert.match(stringField(ok, "client_id"), /^mcl_/)
      assert.isUndefined(jsonField(ok, "client_secret"))
      const http = yield* request("POST", "/oauth/register", { body: { redirect_uris: ["http://agent.example/cb"] } })
      assert.strictEqual(http.status, 400)
      assert.strictEqual(jsonField(http, "error"), "invalid_redirect_uri")
      const none = yield* request("POST", "/oauth/register", { body: { redirect_uris: [] } })
      assert.strictEqual(jsonField(none, "error"), "invalid_client_metadata")
      const notJson = yield* request("POST", "/oauth/register", {
        bytes: new TextEncoder().encode("{"),
        contentType: "application/json"
      })
      assert.strictEqual(jsonField(notJson, "error"), "invalid_client_metadata")
      const confidential = yield* request("POST", "/oauth/register", {
        body: { redirect_uris: [redirectUri], token_endpoint_auth_method: "client_secret_post" }
      })
      assert.match(stringField(confidential, "client_secret"), /^mcs_/)
    })
  )

  it.effect("stock clients register: Cursor's private-use scheme, VS Code's loopback URIs and device_code grant", () =>
    Effect.gen(function* () {
      const cursor = yield* request("POST", "/oauth/register", {
        body: {
          client_name: "Cursor",
          redirect_uris: ["cursor://anysphere.cursor-mcp/oauth/callback"],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          token_endpoint_auth_method: "none"
        }
      })
      assert.strictEqual(cursor.status, 201, cursor.text)
      assert.deepStrictEqual(jsonField(cursor, "redirect_uris"), ["cursor://anysphere.cursor-mcp/oauth/callback"])
      const vscode = yield* request("POST", "/oauth/register", {
        body: {
          client_name: "Visual Studio Code",
          redirect_uris: ["https://vscode.dev/redirect", "http://127.0.0.1/", "http://127.0.0.1:33418/"],
          grant_types: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
          response_types: ["code"],
          token_endpoint_auth_method: "none"
        }
      })
      assert.strictEqual(vscode.status, 201, vscode.text)
      // RFC 7591 section 2: the answer names what the client gets; the device code grant is not offered.
      assert.deepStrictEqual(jsonField(vscode, "grant_types"), ["authorization_code", "refresh_token"])
      const noCodeGrant = yield* request("POST", "/oauth/register", {
        body: { redirect_uris: [redirectUri], grant_types: ["client_credentials"] }
      })
      assert.strictEqual(noCodeGrant.status, 400)
      assert.strictEqual(jsonField(noCodeGrant, "error"), "invalid_client_metadata")
      for (const dangerous of ["javascript:alert(1)", "data:text/html,x", "file:///tmp/cb", "ms-msdt:/id x"]) {
        const refused = yield* request("POST", "/oauth/register", { body: { redirect_uris: [dangerous] } })
        assert.strictEqual(jsonField(refused, "error"), "invalid_redirect_uri", dangerous)
      }

      // VS Code's fallback: the registered port is taken, so it listens on another and asks for that one.
      const { owner } = yield* aWorkspaceWithOwner()
      const clientId = stringField(vscode, "client_id")
      const resource = `${yield* McpTestServer.origin}/mcp`
      const fallback = "http://127.0.0.1:19214/"
      const authorizationUrl = (redirect: string) =>
        Effect.map(McpTestServer.origin, (origin) => {
          const url = new URL("/oauth/authorize", origin)
          for (const [name, value] of Object.entries({
            client_id: clientId,
            redirect_uri: redirect,
            response_type: "code",
            code_challenge: pkce.challenge,
            code_challenge_method: "S256",
            resource,
            scope: "runs:read",
            state: "vscode-state"
          })) {
            url.searchParams.set(name, value)
          }
          return url
        })
      const otherPath = yield* authorizationUrl("http://127.0.0.1:19214/other")
      const elsewhere = yield* request("GET", `${otherPath.pathname}${otherPath.search}`)
      assert.strictEqual(elsewhere.status, 400, elsewhere.text)
      assert.notInclude(elsewhere.text, "Sign in to Margin")
      const back = new URL(yield* consentByHttp(yield* authorizationUrl(fallback), owner.user.email))
      assert.strictEqual(`${back.origin}${back.pathname}`, "http://127.0.0.1:19214/", back.href)
      const code = back.searchParams.get("code") ?? assert.fail(`no code in ${back.href}`)
      const tokens = yield* redeem(clientId, code, resource, { redirect_uri: fallback })
      assert.strictEqual(tokens.status, 200, tokens.text)
      assert.strictEqual((yield* post(initialize(), { token: stringField(tokens, "access_token") })).status, 200)
    })
  )

  it.effect(
    "step-up: a grant calling a tool beyond its scopes gets 403 insufficient_scope naming what to ask for",
    () =>
      Effect.gen(function* () {
        const origin = yield* McpTestServer.origin
        const { workspace, owner } = yield* aWorkspaceWithOwner()
        const clientId = yield* registerClient
        const { code, resource } = yield* consentCode(clientId, owner.user, workspace, ["runs:read", "catalog:read"])
        const access = stringField(yield* redeem(clientId, code, resource), "access_token")
        const open = (token: string) =>
          Effect.gen(function* () {
            const opened = yield* post(initialize(), { token })
            assert.strictEqual(opened.status, 200, opened.text)
            const headers = {
              "mcp-session-id": opened.headers["mcp-session-id"] ?? assert.fail("no session id"),
              "mcp-protocol-version": "2025-11-25"
            }
            yield* post({ jsonrpc: "2.0", method: "notifications/initialized" }, { token, headers })
            return (message: object) => post({ jsonrpc: "2.0", id: 2, ...message }, { token, headers })
          })
        const call = (name: string) => ({ method: "tools/call", params: { name, arguments: {} } })
        const send = yield* open(access)

        // A grant sees every tool: one beyond its scopes is how it learns to ask for more.
        const listed = yield* send({ method: "tools/list" })
        assert.lengthOf(
          Reflect.get(Reflect.get(Object(listed.json), "result"), "tools"),
          operationCatalogue.filter((entry) => entry.mcp !== null).length
        )
        const refused = yield* send(call("trigger_run"))
        assert.strictEqual(refused.status, 403, refused.text)
        assert.strictEqual(
          refused.headers["www-authenticate"],
          `Bearer error="insufficient_scope", scope="runs:read runs:trigger catalog:read", ` +
            `resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", ` +
            `error_description="This tool needs the runs:trigger scope."`
        )
        assert.strictEqual(jsonField(refused, "code"), "insufficient_scope")
        assert.strictEqual(jsonField(refused, "required"), "runs:trigger")
        const granted = yield* send(call("list_runs"))
        assert.strictEqual(granted.status, 200, granted.text)

        // An API token's scopes cannot grow: the call answers the in-band error, as before.
        const token = yield* issueToken(workspace, owner.user, { scopes: ["runs:read"] })
        const sendAsToken = yield* open(token.secret)
        const inBand = yield* sendAsToken(call("trigger_run"))
        assert.strictEqual(inBand.status, 200, inBand.text)
        assert.include(inBand.text, "insufficient_scope")
      })
  )

  it.effect("code -> tokens -> /mcp; the code once; refresh rotates; a reused refresh token kills the grant", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const clientId = yield* registerClient
      const { code, resource } = yield* consentCode(clientId, owner.user, workspace, ["runs:read"])
      const tokens = yield* redeem(clientId, code, resource)
      assert.strictEqual(tokens.status, 200, tokens.text)
      assert.strictEqual(tokens.headers["cache-control"], "no-store")
      assert.strictEqual(jsonField(tokens, "scope"), "runs:read")
      const access = stringField(tokens, "access_token")
      const opened = yield* post(initialize(), { token: access })
      assert.strictEqual(opened.status, 200, opened.text)
      const replay = yield* redeem(clientId, code, resource)
      assert.strictEqual(replay.status, 400)
      assert.strictEqual(jsonField(replay, "error"), "invalid_grant")
      // The replay revoked the grant: its access token no longer opens /mcp.
      assert.strictEqual((yield* post(initialize(), { token: access })).status, 401)

      const second = yield* consentCode(clientId, owner.user, workspace, ["runs:read"])
      const pair = yield* redeem(clientId, second.code, resource)
      const refresh = stringField(pair, "refresh_token")
      const rotated = yield* postForm("/oauth/token", {
        grant_type: "refresh_token",
        client_id: clientId,
        refresh_token: refresh
      })
      assert.strictEqual(rotated.status, 200, rotated.text)
      assert.notStrictEqual(stringField(rotated, "refresh_token"), refresh)
      const reused = yield* postForm("/oauth/token", {
        grant_type: "refresh_token",
        client_id: clientId,
        refresh_token: refresh
      })
      assert.strictEqual(jsonField(reused, "error"), "invalid_grant")
      assert.strictEqual((yield* post(initialize(), { token: stringField(rotated, "access_token") })).status, 401)
    })
  )

  it.effect(
    "negative: wrong verifier, other redirect URI, foreign resource, unknown client, expired-style unknown code",
    () =>
      Effect.gen(function* () {
        const { workspace, owner } = yield* aWorkspaceWithOwner()
        const clientId = yield* registerClient
        const attempt = (overrides: Record<string, string>) =>
          Effect.flatMap(consentCode(clientId, owner.user, workspace, ["runs:read"]), ({ code, resource }) =>
            redeem(clientId, code, resource, overrides)
          )
        const wrongVerifier = yield* attempt({ code_verifier: "x".repeat(43) })
        assert.strictEqual(jsonField(wrongVerifier, "error"), "invalid_grant")
        const otherRedirect = yield* attempt({ redirect_uri: "http://127.0.0.1:33418/other" })
        assert.strictEqual(jsonField(otherRedirect, "error"), "invalid_grant")
        const foreign = yield* attempt({ resource: "https://evil.example/mcp" })
        assert.strictEqual(jsonField(foreign, "error"), "invalid_target")
        const unknownClient = yield* attempt({ client_id: "mcl_nobody" })
        assert.strictEqual(unknownClient.status, 401)
        assert.strictEqual(jsonField(unknownClient, "error"), "invalid_client")
        const noGrantType = yield* postForm("/oauth/token", { client_id: clientId })
        assert.strictEqual(jsonField(noGrantType, "error"), "unsupported_grant_type")
        const repeated = yield* request("POST", "/oauth/token", {
          bytes: new TextEncoder().encode(`grant_type=authorization_code&client_id=${clientId}&code=a&code=b`),
          contentType: "application/x-www-form-urlencoded"
        })
        assert.strictEqual(jsonField(repeated, "error"), "invalid_request")
      })
  )

  it.effect("a sign-in link signs in once: its second use, even from another browser, is refused", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const clientId = yield* registerClient
      const origin = yield* McpTestServer.origin
      const authorizationUrl = new URL(authorizePath(clientId, `${origin}/mcp`), origin)
      const { send, link } = yield* signInLink(authorizationUrl, owner.user.email)
      // Opening the link (a mail scanner does) spends nothing: it asks to continue.
      assert.strictEqual((yield* send(link)).status, 200)
      assert.strictEqual((yield* send(link)).status, 200)
      const first = yield* followLink(send, link, owner.user.email)
      assert.strictEqual(first.status, 303, first.html)
      assert.include((yield* send(authorizationUrl)).html, "asks to act for you")

      const other = httpBrowser()
      const otherSend = (url: URL, init?: RequestInit) => Effect.promise(() => other(url, init))
      // The page still asks (it spends nothing and reads nothing); continuing is refused.
      const opened = yield* followLink(otherSend, link, owner.user.email)
      assert.strictEqual(opened.status, 400, opened.html)
      assert.include(opened.html, "already used or has expired")
      assert.isUndefined(opened.location)
      // Not signed in: the authorization request still asks who they are.
      const page = yield* otherSend(authorizationUrl)
      assert.include(page.html, "Sign in to Margin")
      assert.notInclude(page.html, "asks to act for you")
      // Nor in the browser that used it, once more.
      assert.strictEqual((yield* followLink(send, link, owner.user.email)).status, 400)
    })
  )

  it.effect("revocation (RFC 7009): an access token alone; a refresh token ends the grant; unknown tokens 200", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const clientId = yield* registerClient
      const first = yield* consentCode(clientId, owner.user, workspace, ["runs:read"])
      const tokens = yield* redeem(clientId, first.code, first.resource)
      const access = stringField(tokens, "access_token")
      assert.strictEqual((yield* postForm("/oauth/revoke", { client_id: clientId, token: access })).status, 200)
      assert.strictEqual((yield* post(initialize(), { token: access })).status, 401)
      const rotated = yield* postForm("/oauth/token", {
        grant_type: "refresh_token",
        client_id: clientId,
        refresh_token: stringField(tokens, "refresh_token")
      })
      assert.strictEqual((yield* post(initialize(), { token: stringField(rotated, "access_token") })).status, 200)
      yield* postForm("/oauth/revoke", { client_id: clientId, token: stringField(rotated, "refresh_token") })
      assert.strictEqual((yield* post(initialize(), { token: stringField(rotated, "access_token") })).status, 401)
      assert.strictEqual((yield* postForm("/oauth/revoke", { client_id: clientId, token: "mat_nothing" })).status, 200)
    })
  )

  it.effect("a deleted user's grant still reads, and mutating tools answer token_unusable", () =>
    Effect.gen(function* () {
      const { workspace } = yield* aWorkspaceWithOwner()
      const analyst = yield* member(workspace, "analyst")
      const clientId = yield* registerClient
      const { code, resource } = yield* consentCode(clientId, analyst.user, workspace, ["runs:read", "runs:trigger"])
      const access = stringField(yield* redeem(clientId, code, resource), "access_token")
      const agent = yield* connect(access)
      const now = yield* Clock.currentTimeMillis
      yield* UserRepository.use((users) => users.markDeleted(analyst.user.id, now))
      assert.isFalse((yield* agent.call("list_runs")).isError)
      const refused = yield* agent.call("trigger_run")
      assert.isTrue(refused.isError)
      assert.strictEqual(Reflect.get(Object(refused.json), "code"), "token_unusable")
    }).pipe(Effect.scoped)
  )
})

layer(McpTestServer.layer({ rateLimit: 3 }), { excludeTestServices: true })(
  "OAuth registration and client documents",
  (it) => {
    it.effect("registration counts on the budget per address: the fourth in a minute is 429", () =>
      Effect.gen(function* () {
        yield* awayFromWindowEdge
        const register = request("POST", "/oauth/register", { body: { redirect_uris: [redirectUri] } })
        const statuses: Array<number> = []
        for (let n = 0; n < 4; n++) statuses.push((yield* register).status)
        assert.deepStrictEqual(statuses, [201, 201, 201, 429])
        assert.isString((yield* register).headers["retry-after"])
      })
    )

    it.effect("a client metadata URL at a private address is refused on the page, never fetched from", () =>
      Effect.gen(function* () {
        const query = new URLSearchParams({
          response_type: "code",
          client_id: "https://10.0.0.7/client.json",
          redirect_uri: redirectUri,
          code_challenge: pkce.challenge,
          code_challenge_method: "S256",
          resource: `${yield* McpTestServer.origin}/mcp`
        })
        const page = yield* request("GET", `/oauth/authorize?${query}`)
        assert.strictEqual(page.status, 400, page.text)
        assert.include(page.text, "address not allowed")
        assert.isUndefined(page.headers.location)
        const metadata = yield* request("GET", "/.well-known/oauth-authorization-server")
        assert.isTrue(Boolean(Reflect.get(Object(metadata.json), "client_id_metadata_document_supported")))
      })
    )
  }
)
