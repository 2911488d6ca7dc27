import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { assert, layer } from "@effect/vitest"
import { aWorkspaceWithOwner } from "@margin/edge/testing/World"
import * as McpTestServer from "@margin/runtime/testing/McpTestServer"
import { Duration, Effect, Schedule } from "effect"
import { post, type RawReply } from "./RawMcp.ts"

/**
 * MCP sessions are bounded (issue 29: a flood of initializes with a large clientInfo, never ended,
 * exhausted the heap): per token and in all, the least recently used ending first; idle ones end;
 * an initialize body above the limit is refused.
 */

const protocolVersion = "2025-11-25"

const initializeWith = (clientName: string) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: clientName, version: "1.0.0" } }
})

/** A new session of `token`: its id. */
const open = (token: string, clientName = "session-test") =>
  Effect.gen(function* () {
    const reply = yield* post(initializeWith(clientName), { token })
    assert.strictEqual(reply.status, 200, reply.text)
    const id = reply.headers["mcp-session-id"]
    assert.isString(id, JSON.stringify(reply.headers))
    return id ?? ""
  })

/** A ping in session `id`: 200 while it lives, 404 once it ended. */
const ping = (token: string, id: string) =>
  post(
    { jsonrpc: "2.0", id: 2, method: "ping" },
    { token, headers: { "mcp-session-id": id, "mcp-protocol-version": protocolVersion } }
  )

const statusOf = (reply: RawReply) => reply.status

const expectAlive = (token: string, id: string) =>
  Effect.map(ping(token, id), (reply) => assert.strictEqual(reply.status, 200, `${id}: ${reply.text}`))

const expectEnded = (token: string, id: string) =>
  Effect.map(ping(token, id), (reply) => {
    assert.strictEqual(reply.status, 404, `${id}: ${reply.text}`)
    assert.include(reply.text, `"code":"not_found"`)
  })

layer(McpTestServer.layer({ sessions: { perToken: 3, total: 5, initializeMaxBytes: 4096 } }))(
  "MCP session limits",
  (it) => {
    it.effect("an initialize body above MCP_INITIALIZE_MAX_BYTES: 413 payload_too_large, no session", () =>
      Effect.gen(function* () {
        const { owner } = yield* aWorkspaceWithOwner()
        const reply = yield* post(initializeWith("x".repeat(8192)), { token: owner.token })
        assert.strictEqual(reply.status, 413, reply.text)
        assert.strictEqual(Reflect.get(Object(reply.json), "code"), "payload_too_large", reply.text)
        assert.isString(Reflect.get(Object(reply.json), "message"))
        assert.isUndefined(reply.headers["mcp-session-id"])
      })
    )

    it.effect("per token: a fourth session ends the token's least recently used; other tokens keep theirs", () =>
      Effect.gen(function* () {
        const { owner } = yield* aWorkspaceWithOwner({ plan: "max" })
        const other = (yield* aWorkspaceWithOwner({ plan: "max" })).owner
        const [a, b, c] = [yield* open(owner.token), yield* open(owner.token), yield* open(owner.token)]
        const kept = yield* open(other.token)
        yield* expectAlive(owner.token, a ?? "")
        const d = yield* open(owner.token)
        yield* expectEnded(owner.token, b ?? "")
        for (const id of [a, c, d]) yield* expectAlive(owner.token, id ?? "")
        yield* expectAlive(other.token, kept)
      })
    )

    it.effect("in all: beyond the process's cap the least recently used session of any token ends", () =>
      Effect.gen(function* () {
        const tokens = yield* Effect.forEach([1, 2, 3, 4, 5, 6], () =>
          Effect.map(aWorkspaceWithOwner({ plan: "max" }), ({ owner }) => owner.token)
        )
        const sessions = yield* Effect.forEach(tokens, (token) => Effect.map(open(token), (id) => ({ token, id })))
        const [first, ...rest] = sessions
        if (first !== undefined) yield* expectEnded(first.token, first.id)
        for (const { token, id } of rest) yield* expectAlive(token, id)
      })
    )

    it.effect("a session id used with another token is not found, and is not ended by it", () =>
      Effect.gen(function* () {
        const { owner } = yield* aWorkspaceWithOwner({ plan: "max" })
        const stranger = (yield* aWorkspaceWithOwner({ plan: "max" })).owner
        const id = yield* open(owner.token)
        yield* expectEnded(stranger.token, id)
        const deleted = yield* post(
          { jsonrpc: "2.0", id: 3, method: "ping" },
          { token: stranger.token, headers: { "mcp-session-id": id } }
        )
        assert.strictEqual(deleted.status, 404, deleted.text)
        yield* expectAlive(owner.token, id)
      })
    )
  }
)

layer(McpTestServer.layer({ sessions: { idleTimeoutMs: 50 } }), { excludeTestServices: true })(
  "MCP idle sessions",
  (it) => {
    it.effect("a session unused for MCP_SESSION_IDLE_TIMEOUT ends", () =>
      Effect.gen(function* () {
        const { owner } = yield* aWorkspaceWithOwner({ plan: "max" })
        const id = yield* open(owner.token)
        // Waits for the state, not for a time. A ping uses the session, so pings closer together
        // than the idle timeout would keep it alive on a fast machine: they are spaced well beyond
        // it (a slower machine only spaces them more), so the session is idle before each one.
        yield* ping(owner.token, id).pipe(
          Effect.map(statusOf),
          Effect.repeat({ until: (status) => status === 404, schedule: Schedule.spaced(Duration.millis(200)) })
        )
        yield* expectEnded(owner.token, id)
      })
    )
  }
)

/** The heap in use after a full collection. */
const heapAfterGc = Effect.sync(() => {
  setFlagsFromString("--expose-gc")
  const gc: unknown = runInNewContext("gc")
  if (typeof gc === "function") gc()
  return process.memoryUsage().heapUsed
})

const floodSessions = 200
const paddingBytes = 200 * 1024

/** An initialize whose `params` carry `padding` (about `paddingBytes`) where `place` says. */
const paddedInitialize = (place: "capability" | "clientInfo", index: number) => {
  const padding = `flood-${index}-${"x".repeat(paddingBytes)}`
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion,
      // `sampling` is a capability the session keeps; a client's description is not kept.
      capabilities: place === "capability" ? { sampling: { padding } } : {},
      clientInfo: { name: "flood", version: "1.0.0", ...(place === "clientInfo" ? { description: padding } : {}) }
    }
  }
}

/**
 * `floodSessions` initializes padded at `place` from 4 tokens, never ended: the heap after a full
 * collection grows by less than 16 MiB (kept, the flood would hold 200 x 200 KiB = 40 MiB); answers
 * the sessions opened, oldest first.
 */
const flood = (place: "capability" | "clientInfo") =>
  Effect.gen(function* () {
    const tokens = yield* Effect.forEach([1, 2, 3, 4], () =>
      Effect.map(aWorkspaceWithOwner({ plan: "max" }), ({ owner }) => owner.token)
    )
    // Warm up (code paths, caches), then measure from there.
    yield* Effect.forEach(tokens, (token) => open(token))
    const before = yield* heapAfterGc
    const opened: Array<{ readonly token: string; readonly id: string }> = []
    for (let i = 0; i < floodSessions; i++) {
      const token = tokens[i % tokens.length] ?? ""
      const reply = yield* post(paddedInitialize(place, i), { token })
      assert.strictEqual(reply.status, 200, reply.text)
      opened.push({ token, id: reply.headers["mcp-session-id"] ?? "" })
    }
    const grown = (yield* heapAfterGc) - before
    assert.isBelow(grown, 16 * 1024 * 1024, `the heap grew by ${Math.round(grown / 1024 / 1024)} MiB`)
    return opened
  })

const floodLimit = { initializeMaxBytes: paddingBytes + 1024 }

layer(McpTestServer.layer({ sessions: { ...floodLimit, perToken: 2, total: 6 } }), {
  excludeTestServices: true,
  timeout: "120 seconds"
})("MCP session flood", (it) => {
  it.effect(
    `${floodSessions} initializes keeping ${paddingBytes / 1024} KiB each, never ended: the heap stays flat, the oldest sessions end`,
    () =>
      Effect.gen(function* () {
        const opened = yield* flood("capability")
        for (const { token, id } of opened.slice(-6)) yield* expectAlive(token, id)
        for (const { token, id } of opened.slice(0, 10)) yield* expectEnded(token, id)
      }),
    { timeout: 120_000 }
  )
})

layer(McpTestServer.layer({ sessions: { ...floodLimit, perToken: 1000, total: 1000 } }), {
  excludeTestServices: true,
  timeout: "120 seconds"
})("MCP initialize payloads", (it) => {
  it.effect(
    `${floodSessions} live sessions whose clientInfo carried ${paddingBytes / 1024} KiB: only what a session needs is kept`,
    () =>
      Effect.gen(function* () {
        const opened = yield* flood("clientInfo")
        for (const { token, id } of [...opened.slice(0, 3), ...opened.slice(-3)]) yield* expectAlive(token, id)
      }),
    { timeout: 120_000 }
  )
})
