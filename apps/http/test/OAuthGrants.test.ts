import { assert, layer } from "@effect/vitest"
import type { User } from "@margin/core/access/User"
import type { Workspace } from "@margin/core/workspaces/Workspace"
import { aWorkspaceWithOwner } from "@margin/edge/testing/World"
import { consentCode, pkce } from "@margin/runtime/testing/OAuthConsent"
import { baseUrl, bodyOf, call, expectError, layer as testServer } from "@margin/runtime/testing/TestServer"
import { Clock, Effect } from "effect"

/**
 * OAuth access tokens in the REST process: refused by REST (401), admitted by /mcp, and each grant
 * a budget of its own (spec 8.2), apart from the user's API tokens.
 */

const limit = 60
const redirectUri = "http://127.0.0.1:33418/callback"

/** Budgets are fixed minutes: start well inside one, so that no reset happens mid-test. */
const awayFromWindowEdge = Effect.gen(function* () {
  const now = yield* Clock.currentTimeMillis
  const left = 60_000 - (now % 60_000)
  if (left < 20_000) yield* Effect.sleep(left + 50)
})

const text = (reply: { readonly json: unknown }, field: string): string => {
  const value = Reflect.get(Object(reply.json), field)
  return typeof value === "string" ? value : assert.fail(`no ${field}`)
}

/** A registered client, the user's consent (as the consent page records it) and the code redeemed. */
const accessToken = (user: User, workspace: Workspace) =>
  Effect.gen(function* () {
    const registered = yield* call("POST", "/oauth/register", { body: { redirect_uris: [redirectUri] } })
    const clientId = text(registered, "client_id")
    const resource = `${yield* baseUrl}/mcp`
    const code = yield* consentCode({ clientId, redirectUri, resource, user, workspace, scopes: ["runs:read"] })
    const form = new URLSearchParams({
      grant_type: "authorization_code",
      client_id: clientId,
      code,
      redirect_uri: redirectUri,
      code_verifier: pkce.verifier
    })
    const tokens = yield* call("POST", "/oauth/token", {
      body: form.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" }
    })
    assert.strictEqual(tokens.status, 200, tokens.text)
    return text(tokens, "access_token")
  })

/** A request /mcp counts and answers cheaply: its GET (405 once admitted; refusals come first). */
const mcpGet = (token: string) => call("GET", "/mcp", { token, headers: { accept: "text/event-stream" } })

layer(testServer({ rateLimit: limit }), { excludeTestServices: true, timeout: "60 seconds" })(
  "OAuth grants in the REST process",
  (it) => {
    it.effect("REST answers 401 to an OAuth access token; /mcp admits it", () =>
      Effect.gen(function* () {
        const { workspace, owner } = yield* aWorkspaceWithOwner()
        const access = yield* accessToken(owner.user, workspace)
        const refused = expectError(yield* call("GET", "/api/v1/runs", { token: access }), 401, "unauthorized")
        assert.include(String(refused.message), "MCP")
        assert.strictEqual((yield* mcpGet(access)).status, 405)
      })
    )

    it.effect("two grants of one user each get their own 60; neither counts against the user's token", () =>
      Effect.gen(function* () {
        yield* awayFromWindowEdge
        const { workspace, owner } = yield* aWorkspaceWithOwner()
        const first = yield* accessToken(owner.user, workspace)
        const second = yield* accessToken(owner.user, workspace)
        for (const access of [first, second]) {
          for (let n = 0; n < limit; n++) assert.strictEqual((yield* mcpGet(access)).status, 405)
          const over = yield* mcpGet(access)
          expectError(over, 429, "rate_limited")
          assert.isString(over.headers["retry-after"])
        }
        const rest = yield* call("GET", "/api/v1/runs", { token: owner.token })
        assert.strictEqual(rest.status, 200, rest.text)
        assert.isArray(bodyOf(rest).data)
      })
    )
  }
)
