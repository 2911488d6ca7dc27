import { assert, layer } from "@effect/vitest"
import { aWorkspaceWithOwner } from "@margin/edge/testing/World"
import * as McpTestServer from "@margin/runtime/testing/McpTestServer"
import {
  discoverAuthorizationServerMetadata,
  refreshAuthorization,
  UnauthorizedError
} from "@modelcontextprotocol/sdk/client/auth.js"
import { Effect } from "effect"
import { consentByHttp } from "./ConsentByHttp.ts"
import { initialize, post } from "./RawMcp.ts"
import { connected, finishAuthorization, MemoryOAuthProvider, requestAuthorization } from "./SdkOAuthProvider.ts"

const redirectUri = "http://127.0.0.1:33418/callback"

/**
 * The official MCP SDK client and its OAuth support against the test server, the pages followed
 * with plain HTTP (apps/mcp/test/OAuthBrowser.test.ts opens them in Chromium): discovery (RFC 9728,
 * RFC 8414), dynamic registration, PKCE, sign-in by e-mail link, consent, tokens, tools, refresh,
 * revocation, and a reused refresh token ending the grant.
 */
layer(McpTestServer.layer(), { timeout: "60 seconds" })("the MCP SDK client over OAuth", (it) => {
  it.effect(
    "discovers, registers, consents, lists and calls tools, refreshes, revokes; a reused refresh kills the grant",
    () =>
      Effect.gen(function* () {
        const { owner } = yield* aWorkspaceWithOwner()
        const url = yield* McpTestServer.mcpUrl
        const origin = yield* McpTestServer.origin
        const provider = new MemoryOAuthProvider(redirectUri)

        // No token yet: the SDK discovers, registers and asks the user agent to open the authorization URL.
        const first = yield* requestAuthorization(url, provider)
        assert.instanceOf(first, UnauthorizedError)
        assert.match(String(provider.clientInformation()?.client_id), /^mcl_/)
        const authorizationUrl = provider.authorizationUrl
        if (authorizationUrl === undefined) return assert.fail("the SDK opened no authorization URL")
        assert.strictEqual(authorizationUrl.origin, origin)
        assert.strictEqual(authorizationUrl.searchParams.get("code_challenge_method"), "S256")
        assert.strictEqual(authorizationUrl.searchParams.get("resource"), url.href)

        const back = yield* consentByHttp(authorizationUrl, owner.user.email)
        assert.strictEqual(`${back.origin}${back.pathname}`, redirectUri)
        assert.strictEqual(back.searchParams.get("state"), "sdk-state-1")
        assert.strictEqual(back.searchParams.get("iss"), origin)
        const code = back.searchParams.get("code")
        if (code === null) return assert.fail(`no code in ${back.href}`)
        yield* finishAuthorization(url, provider, code)
        const tokens = provider.tokens()
        if (tokens?.refresh_token === undefined) return assert.fail("no tokens saved")
        assert.match(tokens.access_token, /^mat_/)

        const client = yield* connected(url, provider)
        const listed = yield* Effect.promise(() => client.listTools())
        assert.include(
          listed.tools.map((tool) => tool.name),
          "list_runs"
        )
        const called = yield* Effect.promise(() => client.callTool({ name: "list_runs", arguments: {} }))
        assert.notStrictEqual(called.isError, true, JSON.stringify(called))

        // Refresh with the SDK: a new pair; the old access token stays good until it expires.
        const metadata = yield* Effect.promise(() => discoverAuthorizationServerMetadata(origin))
        const information = provider.clientInformation()
        if (metadata === undefined || information === undefined) return assert.fail("no metadata or registration")
        const refreshed = yield* Effect.promise(() =>
          refreshAuthorization(origin, {
            metadata,
            clientInformation: information,
            refreshToken: tokens.refresh_token ?? "",
            resource: url
          })
        )
        assert.notStrictEqual(refreshed.refresh_token, tokens.refresh_token)
        assert.strictEqual((yield* post(initialize(), { token: refreshed.access_token })).status, 200)

        // Revocation (RFC 7009) of the new access token: refused from then on.
        const revoked = yield* Effect.promise(() =>
          fetch(new URL("/oauth/revoke", origin), {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({ client_id: information.client_id, token: refreshed.access_token }).toString()
          })
        )
        assert.strictEqual(revoked.status, 200)
        assert.strictEqual((yield* post(initialize(), { token: refreshed.access_token })).status, 401)

        // The first refresh token again: a reuse, so the grant ends with every token of it.
        const reuse = yield* Effect.promise(() =>
          refreshAuthorization(origin, {
            metadata,
            clientInformation: information,
            refreshToken: tokens.refresh_token ?? "",
            resource: url
          }).then(
            () => "accepted",
            (error: unknown) => String(error)
          )
        )
        assert.match(reuse, /invalid_grant|InvalidGrant/i)
        const afterReuse = yield* Effect.promise(() =>
          refreshAuthorization(origin, {
            metadata,
            clientInformation: information,
            refreshToken: refreshed.refresh_token ?? "",
            resource: url
          }).then(
            () => "accepted",
            (error: unknown) => String(error)
          )
        )
        assert.notStrictEqual(afterReuse, "accepted")
        assert.strictEqual((yield* post(initialize(), { token: tokens.access_token })).status, 401)
      }).pipe(Effect.scoped)
  )

  it.effect("a free-plan workspace cannot be chosen; the user denying sends access_denied back", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner({ plan: "free" })
      const url = yield* McpTestServer.mcpUrl
      const provider = new MemoryOAuthProvider(redirectUri)
      yield* requestAuthorization(url, provider)
      const authorizationUrl = provider.authorizationUrl
      if (authorizationUrl === undefined) return assert.fail("the SDK opened no authorization URL")
      const back = yield* consentByHttp(authorizationUrl, owner.user.email, "deny")
      assert.strictEqual(back.searchParams.get("error"), "access_denied")
      assert.strictEqual(back.searchParams.get("state"), "sdk-state-1")
    })
  )
})
