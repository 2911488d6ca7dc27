import { assert, layer } from "@effect/vitest"
import { aWorkspaceWithOwner } from "@margin/edge/testing/World"
import { allowedHeaders, exposedHeaders } from "@margin/mcp-server"
import * as McpTestServer from "@margin/runtime/testing/McpTestServer"
import { Effect } from "effect"
import { awayFromWindowEdge } from "./RateWindow.ts"
import { initialize, post, type RawReply, request } from "./RawMcp.ts"

const allowed = "http://localhost:6274"
const other = "https://console.margin.example"
const foreign = "http://evil.example.com"
const limit = 3

const metadataPaths = ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]

/** What MCP Inspector's page asks before its first POST. */
const preflight = (path: string, origin: string) =>
  request("OPTIONS", path, {
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers":
        "authorization, content-type, mcp-session-id, mcp-protocol-version, last-event-id"
    }
  })

const corsHeadersOf = (reply: RawReply) =>
  Object.keys(reply.headers).filter((name) => name.startsWith("access-control-"))

const listOf = (header: string | undefined) => (header ?? "").split(",").map((part) => part.trim().toLowerCase())

const expectPreflightAllowed = (reply: RawReply, origin: string) => {
  assert.strictEqual(reply.status, 204, reply.text)
  assert.strictEqual(reply.headers["access-control-allow-origin"], origin)
  assert.includeMembers(listOf(reply.headers["access-control-allow-methods"]), ["get", "post", "delete", "options"])
  assert.includeMembers(listOf(reply.headers["access-control-allow-headers"]), allowedHeaders)
  assert.strictEqual(reply.headers["access-control-max-age"], "7200")
  assert.include(listOf(reply.headers.vary), "origin")
  assert.isUndefined(reply.headers["access-control-allow-credentials"])
}

/** An actual answer a browser page may read: its origin echoed, never `*`, and the MCP headers exposed. */
const expectReadableBy = (reply: RawReply, origin: string) => {
  assert.strictEqual(reply.headers["access-control-allow-origin"], origin, JSON.stringify(reply.headers))
  assert.includeMembers(listOf(reply.headers["access-control-expose-headers"]), exposedHeaders)
  assert.include(listOf(reply.headers.vary), "origin")
}

const expectForbidden = (reply: RawReply) => {
  assert.strictEqual(reply.status, 403, reply.text)
  assert.strictEqual(Reflect.get(Object(reply.json), "code"), "origin_forbidden", reply.text)
  assert.deepStrictEqual(corsHeadersOf(reply), [])
}

layer(McpTestServer.layer({ allowedOrigins: [allowed, other], rateLimit: limit }), {
  excludeTestServices: true,
  timeout: "30 seconds"
})("MCP CORS for MCP_ALLOWED_ORIGINS", (it) => {
  it.effect("an allowed origin's preflight is answered 204 before authentication, on /mcp and the metadata", () =>
    Effect.gen(function* () {
      for (const path of ["/mcp", ...metadataPaths]) {
        expectPreflightAllowed(yield* preflight(path, allowed), allowed)
        expectPreflightAllowed(yield* preflight(path, other), other)
      }
    })
  )

  it.effect("its actual answers are readable: 200 with the session id, 401 with the challenge, the metadata", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const initialized = yield* post(initialize(), { token: owner.token, headers: { origin: allowed } })
      assert.strictEqual(initialized.status, 200, initialized.text)
      assert.isString(initialized.headers["mcp-session-id"])
      expectReadableBy(initialized, allowed)

      const unauthorized = yield* post(initialize(), { headers: { origin: other } })
      assert.strictEqual(unauthorized.status, 401, unauthorized.text)
      assert.include(unauthorized.headers["www-authenticate"] ?? "", "resource_metadata=")
      expectReadableBy(unauthorized, other)

      const ended = yield* request("DELETE", "/mcp", {
        token: owner.token,
        headers: { origin: allowed, "mcp-session-id": initialized.headers["mcp-session-id"] ?? "" }
      })
      assert.strictEqual(ended.status, 204, ended.text)
      expectReadableBy(ended, allowed)

      for (const path of metadataPaths) {
        const metadata = yield* request("GET", path, { headers: { origin: allowed } })
        assert.strictEqual(metadata.status, 200)
        expectReadableBy(metadata, allowed)
      }
    })
  )

  it.effect("a 429 is readable with its Retry-After; preflights do not spend the budget", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      yield* awayFromWindowEdge
      for (let n = 0; n < limit; n++) {
        expectPreflightAllowed(yield* preflight("/mcp", allowed), allowed)
        assert.strictEqual(
          (yield* post(initialize(), { token: owner.token, headers: { origin: allowed } })).status,
          200
        )
      }
      const limited = yield* post(initialize(), { token: owner.token, headers: { origin: allowed } })
      assert.strictEqual(limited.status, 429, limited.text)
      assert.isString(limited.headers["retry-after"])
      expectReadableBy(limited, allowed)
    })
  )

  it.effect("another origin: preflight refused with 403 origin_forbidden, no CORS header anywhere", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      for (const path of ["/mcp", ...metadataPaths]) expectForbidden(yield* preflight(path, foreign))
      expectForbidden(yield* post(initialize(), { token: owner.token, headers: { origin: foreign } }))
      const metadata = yield* request("GET", metadataPaths[0] ?? "", { headers: { origin: foreign } })
      assert.strictEqual(metadata.status, 200)
      assert.deepStrictEqual(corsHeadersOf(metadata), [])
    })
  )

  it.effect("without an Origin (agents, curl) nothing changes: no CORS header, OPTIONS is no preflight", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const initialized = yield* post(initialize(), { token: owner.token })
      assert.strictEqual(initialized.status, 200, initialized.text)
      assert.deepStrictEqual(corsHeadersOf(initialized), [])
      const options = yield* request("OPTIONS", "/mcp")
      assert.strictEqual(options.status, 401, options.text)
      assert.deepStrictEqual(corsHeadersOf(options), [])
      for (const path of metadataPaths) {
        const metadata = yield* request("GET", path)
        assert.strictEqual(metadata.status, 200)
        assert.deepStrictEqual(corsHeadersOf(metadata), [])
        const unrouted = yield* request("OPTIONS", path)
        assert.strictEqual(unrouted.status, 404)
        assert.deepStrictEqual(corsHeadersOf(unrouted), [])
      }
    })
  )
})
