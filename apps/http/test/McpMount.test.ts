import { assert, layer } from "@effect/vitest"
import { aWorkspaceWithOwner } from "@margin/edge/testing/World"
import { connect } from "@margin/runtime/testing/AgentClient"
import { call, expectError, type Reply, layer as testServer } from "@margin/runtime/testing/TestServer"
import { Clock, ConfigProvider, Effect, Layer, Schedule } from "effect"

/**
 * `npm start` serves REST and MCP from one process (HttpApp mounts @margin/mcp-server's routes),
 * and a `pck_` token has one budget across both: with a limit of 60, 30 REST requests and 30 MCP
 * requests spend it, and the next request of either kind is 429 with Retry-After.
 */

const limit = 60

/** Budgets are fixed minutes: start well inside one, so that no reset happens mid-test. */
const awayFromWindowEdge = Effect.gen(function* () {
  const now = yield* Clock.currentTimeMillis
  const left = 60_000 - (now % 60_000)
  if (left < 10_000) yield* Effect.sleep(left + 50)
})

const mcpPost = (token: string, body: unknown, headers: Readonly<Record<string, string>> = {}) =>
  call("POST", "/mcp", {
    token,
    body,
    headers: { accept: "application/json, text/event-stream", "content-type": "application/json", ...headers }
  })

/** A raw session (initialize, then the initialized notification) at `protocolVersion`: its header. */
const session = (token: string, protocolVersion: string) =>
  Effect.gen(function* () {
    const initialized = yield* mcpPost(token, {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion, capabilities: {}, clientInfo: { name: "test", version: "1" } }
    })
    assert.strictEqual(initialized.status, 200, initialized.text)
    const header = { "mcp-session-id": initialized.headers["mcp-session-id"] ?? "" }
    yield* mcpPost(token, { jsonrpc: "2.0", method: "notifications/initialized" }, header)
    return header
  })

layer(testServer({ rateLimit: limit }), { excludeTestServices: true, timeout: "30 seconds" })(
  "MCP in the REST process",
  (it) => {
    it.effect("serves /mcp and the protected-resource metadata beside /api/v1", () =>
      Effect.gen(function* () {
        const { owner } = yield* aWorkspaceWithOwner()
        const agent = yield* connect(owner.token)
        const tools = yield* Effect.promise(() => agent.client.listTools())
        assert.isTrue(tools.tools.some((tool) => tool.name === "approve_recommendation"))
        const metadata = yield* call("GET", "/.well-known/oauth-protected-resource/mcp")
        assert.strictEqual(metadata.status, 200)
        const unauthorized = yield* mcpPost("pck_unknown", { jsonrpc: "2.0", id: 1, method: "ping" })
        expectError(unauthorized, 401, "unauthorized")
      }).pipe(Effect.scoped)
    )

    it.effect("a tool's error result carries the request's id, as REST error bodies do", () =>
      Effect.gen(function* () {
        const { owner } = yield* aWorkspaceWithOwner()
        const header = yield* session(owner.token, "2025-06-18")
        const answer = yield* mcpPost(
          owner.token,
          {
            jsonrpc: "2.0",
            id: 2,
            method: "tools/call",
            params: { name: "get_recommendation", arguments: { recommendation_id: "rec_missing" } }
          },
          { ...header, "x-request-id": "agent-call-7" }
        )
        assert.strictEqual(answer.headers["x-request-id"], "agent-call-7")
        assert.include(answer.text, '"isError":true', answer.text)
        assert.include(answer.text, '\\"code\\":\\"not_found\\"', answer.text)
        assert.include(answer.text, '\\"request_id\\":\\"agent-call-7\\"', answer.text)
      })
    )

    it.effect("30 REST + 30 MCP requests spend one token's budget; the next of either kind is 429", () =>
      Effect.gen(function* () {
        const { owner } = yield* aWorkspaceWithOwner()
        yield* awayFromWindowEdge
        for (let n = 0; n < 30; n++)
          assert.strictEqual((yield* call("GET", "/api/v1/runs", { token: owner.token })).status, 200)
        // The SDK's connect is 3 HTTP requests (initialize, initialized, the GET stream it is refused).
        const agent = yield* connect(owner.token)
        while (agent.requests() < 30) assert.isFalse((yield* agent.call("list_runs")).isError)
        assert.strictEqual(agent.requests(), 30)

        const rest = expectError(yield* call("GET", "/api/v1/runs", { token: owner.token }), 429, "rate_limited")
        assert.isString(rest.message)
        const mcp = yield* mcpPost(
          owner.token,
          { jsonrpc: "2.0", id: 1, method: "ping" },
          {
            "mcp-session-id": agent.transport.sessionId ?? ""
          }
        )
        expectError(mcp, 429, "rate_limited")
        const retryAfter = Number(mcp.headers["retry-after"])
        assert.isTrue(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, mcp.headers["retry-after"])
        const refused = yield* Effect.flip(
          Effect.tryPromise({
            try: () => agent.client.callTool({ name: "list_runs", arguments: {} }),
            catch: (error) => String(error)
          })
        )
        assert.match(refused, /rate_limited/)
      }).pipe(Effect.scoped)
    )

    it.effect("a JSON-RPC batch counts one per message; one the budget cannot cover is refused whole", () =>
      Effect.gen(function* () {
        const { owner } = yield* aWorkspaceWithOwner()
        yield* awayFromWindowEdge
        // Batches are a 2025-03-26 feature: initialize and initialized are 2 of the 60.
        const header = yield* session(owner.token, "2025-03-26")
        const batchOf = (size: number, from: number) =>
          Array.from({ length: size }, (_, index) => ({
            jsonrpc: "2.0",
            id: from + index,
            method: "tools/call",
            params: { name: "list_runs", arguments: { limit: 1 } }
          }))
        const ten = yield* mcpPost(owner.token, batchOf(10, 1), header)
        assert.strictEqual(ten.status, 200, ten.text)
        assert.strictEqual((ten.text.match(/"jsonrpc"/g) ?? []).length, 10, ten.text)
        // 12 spent: a batch of 100 cannot be covered by the 48 left, and none of it runs.
        const hundred = expectError(yield* mcpPost(owner.token, batchOf(100, 11), header), 429, "rate_limited")
        assert.isString(hundred.message)
        expectError(yield* call("GET", "/api/v1/runs", { token: owner.token }), 429, "rate_limited")
      })
    )
  }
)

const browserOrigin = "http://localhost:6274"

/** `npm start` with MCP_ALLOWED_ORIGINS set: the setting is read where HttpApp mounts the MCP routes. */
const withAllowedOrigin = testServer().pipe(
  Layer.provide(
    ConfigProvider.layerAdd(ConfigProvider.fromEnv({ env: { MCP_ALLOWED_ORIGINS: browserOrigin } }), {
      asPrimary: true
    })
  )
)

const corsHeadersOf = (reply: Reply) => Object.keys(reply.headers).filter((name) => name.startsWith("access-control-"))

const preflight = (path: string, origin: string) =>
  call("OPTIONS", path, {
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers":
        "authorization, content-type, mcp-session-id, mcp-protocol-version, last-event-id"
    }
  })

/** Readable by the page: its origin echoed and the MCP headers exposed, whatever layer wrote the answer. */
const expectReadable = (reply: Reply) => {
  assert.strictEqual(reply.headers["access-control-allow-origin"], browserOrigin, JSON.stringify(reply.headers))
  assert.include(reply.headers["access-control-expose-headers"] ?? "", "mcp-session-id")
  assert.include(reply.headers["access-control-expose-headers"] ?? "", "x-request-id")
}

layer(withAllowedOrigin, { excludeTestServices: true })("CORS for browser MCP clients in the REST process", (it) => {
  it.effect("an allowed origin: preflight 204 without a token; 200, 401 and guard-written envelopes readable", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      for (const path of ["/mcp", "/.well-known/oauth-protected-resource/mcp"]) {
        const allowed = yield* preflight(path, browserOrigin)
        assert.strictEqual(allowed.status, 204, allowed.text)
        assert.strictEqual(allowed.headers["access-control-allow-origin"], browserOrigin)
        assert.include(allowed.headers["access-control-allow-headers"] ?? "", "mcp-protocol-version")
        assert.include(allowed.headers["access-control-allow-methods"] ?? "", "DELETE")
      }
      const origin = { origin: browserOrigin }
      const initialized = yield* mcpPost(
        owner.token,
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "page", version: "1" } }
        },
        origin
      )
      assert.strictEqual(initialized.status, 200, initialized.text)
      assert.isString(initialized.headers["mcp-session-id"])
      expectReadable(initialized)
      const unauthorized = yield* mcpPost("pck_unknown", { jsonrpc: "2.0", id: 2, method: "ping" }, origin)
      expectError(unauthorized, 401, "unauthorized")
      expectReadable(unauthorized)
      // The MCP server answers an empty 405 that the response guard rewrites into the envelope.
      const notAllowed = yield* call("GET", "/mcp", { token: owner.token, headers: origin })
      expectError(notAllowed, 405, "method_not_allowed")
      expectReadable(notAllowed)
    })
  )

  it.effect("another origin's preflight: 403 origin_forbidden, no CORS header", () =>
    Effect.gen(function* () {
      const refused = expectError(yield* preflight("/mcp", "http://evil.example.com"), 403, "origin_forbidden")
      assert.isString(refused.message)
      const reply = yield* preflight("/.well-known/oauth-protected-resource", "http://evil.example.com")
      expectError(reply, 403, "origin_forbidden")
      assert.deepStrictEqual(corsHeadersOf(reply), [])
    })
  )

  it.effect("requests without an Origin, and REST with one, are as before: no CORS header", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const options = yield* call("OPTIONS", "/mcp")
      expectError(options, 401, "unauthorized")
      assert.deepStrictEqual(corsHeadersOf(options), [])
      const metadataOptions = yield* call("OPTIONS", "/.well-known/oauth-protected-resource/mcp")
      expectError(metadataOptions, 405, "method_not_allowed")
      assert.strictEqual(metadataOptions.headers.allow, "GET, HEAD")
      const ping = yield* mcpPost(owner.token, { jsonrpc: "2.0", id: 1, method: "ping" })
      assert.deepStrictEqual(corsHeadersOf(ping), [])
      const rest = yield* call("GET", "/api/v1/runs", { token: owner.token, headers: { origin: browserOrigin } })
      assert.strictEqual(rest.status, 200, rest.text)
      assert.deepStrictEqual(corsHeadersOf(rest), [])
      const restPreflight = yield* preflight("/api/v1/runs", browserOrigin)
      assert.notStrictEqual(restPreflight.status, 204)
      assert.deepStrictEqual(corsHeadersOf(restPreflight), [])
    })
  )
})

/** `npm start` with MCP_SESSIONS_PER_TOKEN=1: a token's second session ends its first, inside the REST process too. */
const oneSessionPerToken = testServer().pipe(
  Layer.provide(
    ConfigProvider.layerAdd(ConfigProvider.fromEnv({ env: { MCP_SESSIONS_PER_TOKEN: "1" } }), { asPrimary: true })
  )
)

/** How many `DELETE /mcp` answered 204 so far: the ends of sessions, the process's own included. */
const sessionsEnded = Effect.map(call("GET", "/metrics"), (reply) => {
  const line = reply.text
    .split("\n")
    .find(
      (candidate) =>
        candidate.startsWith("margin_http_requests_total{") &&
        candidate.includes(`method="DELETE"`) &&
        candidate.includes(`route="/mcp"`) &&
        candidate.includes(`status="204"`)
    )
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(" ") + 1))
})

layer(oneSessionPerToken, { excludeTestServices: true })("MCP session limits in the REST process", (it) => {
  it.effect("a second session ends the first: 404 for it, and the MCP server ended it (its DELETE answered 204)", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const ended = yield* sessionsEnded
      const first = yield* session(owner.token, "2025-11-25")
      const second = yield* session(owner.token, "2025-11-25")
      const ping = { jsonrpc: "2.0", id: 1, method: "ping" }
      expectError(yield* mcpPost(owner.token, ping, first), 404, "not_found")
      assert.strictEqual((yield* mcpPost(owner.token, ping, second)).status, 200)
      // The end is sent to the MCP server right after the second initialize: wait for it, not for a time.
      yield* sessionsEnded.pipe(
        Effect.repeat({ until: (count) => count > ended, schedule: Schedule.spaced("20 millis") })
      )
    })
  )
})
