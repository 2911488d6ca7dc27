import { assert, layer } from "@effect/vitest"
import { TokenRepository } from "@margin/core/access/TokenRepository"
import { UserRepository } from "@margin/core/access/UserRepository"
import { aWorkspaceWithOwner, issueToken, session } from "@margin/edge/testing/World"
import { connect } from "@margin/runtime/testing/AgentClient"
import * as McpTestServer from "@margin/runtime/testing/McpTestServer"
import { Clock, Effect } from "effect"
import { awayFromWindowEdge } from "./RateWindow.ts"
import { initialize, post, type RawReply, request } from "./RawMcp.ts"

const allowedOrigin = "https://console.margin.example"

const expectEnvelope = (reply: RawReply, status: number, code: string) => {
  assert.strictEqual(reply.status, status, `expected ${status} ${code}, got ${reply.status} ${reply.text}`)
  assert.match(reply.headers["content-type"] ?? "", /^application\/json/)
  const body = reply.json
  assert.isTrue(typeof body === "object" && body !== null, reply.text)
  assert.strictEqual(Reflect.get(Object(body), "code"), code, reply.text)
  assert.isString(Reflect.get(Object(body), "message"))
}

/**
 * The challenge of a 401: RFC 6750 bearer, naming the RFC 9728 metadata of /mcp on this server
 * and the starting scopes, those of the read-only tools.
 */
const expectChallenge = (reply: RawReply, origin: string, error: boolean) => {
  expectEnvelope(reply, 401, "unauthorized")
  const challenge = reply.headers["www-authenticate"] ?? ""
  assert.include(challenge, `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`)
  assert.include(
    challenge,
    `scope="runs:read recommendations:read alerts:read catalog:read reports:read workspace:read"`,
    challenge
  )
  assert.strictEqual(challenge.includes(`error="invalid_token"`), error, challenge)
}

layer(McpTestServer.layer({ allowedOrigins: [allowedOrigin] }))("MCP HTTP authentication", (it) => {
  it.effect("no token: 401 with WWW-Authenticate pointing at the protected-resource metadata", () =>
    Effect.gen(function* () {
      const origin = yield* McpTestServer.origin
      expectChallenge(yield* post(initialize()), origin, false)
      expectChallenge(yield* request("GET", "/mcp"), origin, false)
      expectChallenge(yield* request("DELETE", "/mcp"), origin, false)
    })
  )

  it.effect("an unknown, malformed, revoked or expired token: 401 invalid_token", () =>
    Effect.gen(function* () {
      const origin = yield* McpTestServer.origin
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const now = yield* Clock.currentTimeMillis
      const revoked = yield* issueToken(workspace, owner.user)
      yield* TokenRepository.use((tokens) => tokens.revoke(revoked.token.id, now))
      const expired = yield* issueToken(workspace, owner.user, { overrides: { expiresAt: now - 1 } })
      for (const token of ["pck_unknown", revoked.secret, expired.secret]) {
        expectChallenge(yield* post(initialize(), { token }), origin, true)
      }
      expectChallenge(yield* post(initialize(), { headers: { authorization: "Basic abc" } }), origin, true)
    })
  )

  it.effect("a session JWT is for first-party apps: 401", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const jwt = yield* session(owner.user)
      expectEnvelope(yield* post(initialize(), { token: jwt }), 401, "unauthorized")
    })
  )

  it.effect("the protected-resource metadata is served without a token (RFC 9728)", () =>
    Effect.gen(function* () {
      const origin = yield* McpTestServer.origin
      for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
        const reply = yield* request("GET", path)
        assert.strictEqual(reply.status, 200)
        assert.deepInclude(Object(reply.json), {
          resource: `${origin}/mcp`,
          bearer_methods_supported: ["header"]
        })
        assert.include(Reflect.get(Object(reply.json), "scopes_supported"), "recommendations:approve")
      }
    })
  )

  it.effect("a body that is not UTF-8 is 400 bad_request, another charset 415, before the MCP server reads it", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const message = new TextEncoder().encode(JSON.stringify(initialize()))
      // A byte that no UTF-8 text has, inside the client's name: it would be stored as U+FFFD.
      const broken = message.slice()
      broken[JSON.stringify(initialize()).indexOf("raw-test") + 4] = 0xff
      expectEnvelope(yield* request("POST", "/mcp", { token: owner.token, bytes: broken }), 400, "bad_request")
      const sessionId = (yield* request("POST", "/mcp", { token: owner.token, bytes: message })).headers[
        "mcp-session-id"
      ]
      assert.isString(sessionId)
      const call = new TextEncoder().encode(
        JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_runs", arguments: {} } })
      )
      const brokenCall = Uint8Array.from([...call.slice(0, -1), 0xc3, 0x28, ...call.slice(-1)])
      const inSession = { "mcp-session-id": sessionId ?? "", "mcp-protocol-version": "2025-11-25" }
      expectEnvelope(
        yield* request("POST", "/mcp", { token: owner.token, bytes: brokenCall, headers: inSession }),
        400,
        "bad_request"
      )
      expectEnvelope(
        yield* request("POST", "/mcp", {
          token: owner.token,
          bytes: call,
          contentType: "application/json; charset=utf-16",
          headers: inSession
        }),
        415,
        "unsupported_media_type"
      )
      // The same call in UTF-8 is answered by the MCP server.
      const answered = yield* request("POST", "/mcp", { token: owner.token, bytes: call, headers: inSession })
      assert.strictEqual(answered.status, 200, answered.text)
    })
  )

  it.effect("plans without MCP (free, pro) are refused with tier_ineligible before any tool", () =>
    Effect.gen(function* () {
      for (const plan of ["free", "pro"] as const) {
        const { owner } = yield* aWorkspaceWithOwner({ plan })
        expectEnvelope(yield* post(initialize(), { token: owner.token }), 403, "tier_ineligible")
        const refused = yield* Effect.flip(connect(owner.token).pipe(Effect.scoped))
        assert.match(refused, /tier_ineligible/)
      }
      for (const plan of ["max", "enterprise"] as const) {
        const { owner } = yield* aWorkspaceWithOwner({ plan })
        assert.strictEqual((yield* post(initialize(), { token: owner.token })).status, 200)
      }
    })
  )

  it.effect("DNS rebinding: a foreign Origin is refused before authentication; an allowed one passes", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const evil = { origin: "http://evil.example.com", host: "evil.example.com" }
      expectEnvelope(yield* post(initialize(), { headers: evil }), 403, "origin_forbidden")
      expectEnvelope(yield* post(initialize(), { token: owner.token, headers: evil }), 403, "origin_forbidden")
      const allowed = yield* post(initialize(), { token: owner.token, headers: { origin: allowedOrigin } })
      assert.strictEqual(allowed.status, 200, allowed.text)
    })
  )

  it.effect("a session takes any supported MCP-Protocol-Version header, concurrently; an unsupported one is 400", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const opened = yield* post(initialize("2025-11-25"), { token: owner.token })
      const session = opened.headers["mcp-session-id"] ?? assert.fail(opened.text)
      const withRevision = (revision: string, id: number) =>
        post(
          { jsonrpc: "2.0", id, method: "tools/list" },
          { token: owner.token, headers: { "mcp-session-id": session, "mcp-protocol-version": revision } }
        )
      // As the conformance suite's server-sse-multiple-streams: three at once naming an older revision.
      const concurrent = yield* Effect.all(
        [withRevision("2025-03-26", 11), withRevision("2025-06-18", 12), withRevision("2025-11-25", 13)],
        { concurrency: "unbounded" }
      )
      for (const reply of concurrent) {
        assert.strictEqual(reply.status, 200, reply.text)
        // The session's negotiated revision governs the answer.
        assert.strictEqual(reply.headers["mcp-protocol-version"], "2025-11-25")
      }
      const unsupported = yield* withRevision("2024-01-01", 14)
      assert.strictEqual(unsupported.status, 400, unsupported.text)
    })
  )

  it.effect("a token bound to another workspace than x-workspace-id names: 403 workspace_forbidden", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const other = yield* aWorkspaceWithOwner()
      const reply = yield* post(initialize(), { token: owner.token, headers: { "x-workspace-id": other.workspace.id } })
      expectEnvelope(reply, 403, "workspace_forbidden")
    })
  )

  it.effect("a deleted issuer's token still reads but every mutating tool answers token_unusable", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const now = yield* Clock.currentTimeMillis
      const agent = yield* connect(owner.token)
      yield* UserRepository.use((users) => users.markDeleted(owner.user.id, now))
      assert.isFalse((yield* agent.call("list_runs")).isError)
      const refused = yield* agent.call("trigger_run")
      assert.isTrue(refused.isError)
      assert.strictEqual(Reflect.get(Object(refused.json), "code"), "token_unusable")
    }).pipe(Effect.scoped)
  )
})

const limit = 5

layer(McpTestServer.layer({ rateLimit: limit }), { excludeTestServices: true, timeout: "30 seconds" })(
  "MCP rate budget",
  (it) => {
    it.effect("every MCP HTTP request counts against the token's budget; then 429 with Retry-After", () =>
      Effect.gen(function* () {
        const { owner } = yield* aWorkspaceWithOwner()
        yield* awayFromWindowEdge
        const replies = [
          yield* post(initialize(), { token: owner.token }),
          yield* request("GET", "/mcp", { token: owner.token }),
          yield* post({ jsonrpc: "2.0", id: 2, method: "ping" }, { token: owner.token }),
          yield* post({ jsonrpc: "2.0", id: 3, method: "tools/list" }, { token: owner.token }),
          yield* post({ not: "json-rpc" }, { token: owner.token })
        ]
        assert.deepStrictEqual(
          replies.map((reply) => reply.status >= 200 && reply.status < 500),
          [true, true, true, true, true]
        )
        const limited = yield* post({ jsonrpc: "2.0", id: 4, method: "ping" }, { token: owner.token })
        expectEnvelope(limited, 429, "rate_limited")
        const retryAfter = Number(limited.headers["retry-after"])
        assert.isTrue(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, limited.text)
        assert.deepStrictEqual(
          Object.keys(limited.headers).filter((name) => name.startsWith("x-ratelimit")),
          []
        )
      })
    )

    it.effect("requests that do not authenticate are not counted", () =>
      Effect.gen(function* () {
        const { owner } = yield* aWorkspaceWithOwner()
        yield* awayFromWindowEdge
        for (let n = 0; n < limit * 2; n++) {
          assert.strictEqual((yield* post(initialize(), { token: "pck_unknown" })).status, 401)
        }
        assert.strictEqual((yield* post(initialize(), { token: owner.token })).status, 200)
      })
    )
  }
)
