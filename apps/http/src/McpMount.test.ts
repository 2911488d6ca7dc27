import { assert, layer } from "@effect/vitest"
import { aWorkspaceWithOwner } from "@margin/edge/testing/World"
import { connect } from "@margin/mcp-server/testing/AgentClient"
import { Clock, Effect } from "effect"
import { call, expectError, layer as testServer } from "./testing/TestServer.ts"

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
        const initialized = yield* mcpPost(owner.token, {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } }
        })
        assert.strictEqual(initialized.status, 200, initialized.text)
        const session = { "mcp-session-id": initialized.headers["mcp-session-id"] ?? "" }
        yield* mcpPost(owner.token, { jsonrpc: "2.0", method: "notifications/initialized" }, session)
        const answer = yield* mcpPost(
          owner.token,
          {
            jsonrpc: "2.0",
            id: 2,
            method: "tools/call",
            params: { name: "get_recommendation", arguments: { recommendation_id: "rec_missing" } }
          },
          { ...session, "x-request-id": "agent-call-7" }
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
  }
)
