import { request } from "node:http"
import { assert, layer } from "@effect/vitest"
import { aWorkspaceWithOwner } from "@margin/edge/testing/World"
import * as McpTestServer from "@margin/runtime/testing/McpTestServer"
import { Effect } from "effect"
import { initialize } from "./RawMcp.ts"

interface Reply {
  readonly status: number
  readonly text: string
}

const publicUrl = "https://margin.example.com"

const expectForbidden = (reply: Reply) => {
  assert.strictEqual(reply.status, 403, reply.text)
  assert.include(reply.text, `"code":"origin_forbidden"`)
}

/**
 * An initialize from a browser page at `origin` that reached the server by the name `host`
 * (node:http, since fetch does not let a Host header through): DNS rebinding puts the attacker's
 * name in both.
 */
const fromPage = (token: string, origin: string, host: string) =>
  Effect.flatMap(McpTestServer.origin, (server) =>
    Effect.callback<Reply>((resume) => {
      const body = JSON.stringify(initialize())
      const outgoing = request(
        new URL("/mcp", server),
        {
          method: "POST",
          agent: false,
          headers: {
            host,
            origin,
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream"
          }
        },
        (incoming) => {
          let text = ""
          incoming.on("data", (chunk) => {
            text += String(chunk)
          })
          incoming.on("end", () => resume(Effect.succeed({ status: incoming.statusCode ?? 0, text })))
        }
      )
      outgoing.on("error", (error) => resume(Effect.die(error)))
      outgoing.end(body)
    })
  )

layer(McpTestServer.layer({ publicUrl }))("MCP origin check with MCP_ALLOWED_ORIGINS empty", (it) => {
  it.effect("the server's own origin passes, under each loopback name it was reached by", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const port = new URL(yield* McpTestServer.origin).port
      for (const name of ["127.0.0.1", "localhost", "[::1]"]) {
        const host = `${name}:${port}`
        const reply = yield* fromPage(owner.token, `http://${host}`, host)
        assert.strictEqual(reply.status, 200, `${host}: ${reply.text}`)
      }
    })
  )

  it.effect("MCP_PUBLIC_URL's origin passes", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const reply = yield* fromPage(owner.token, publicUrl, "margin.example.com")
      assert.strictEqual(reply.status, 200, reply.text)
    })
  )

  it.effect("a rebound name, another local page, or a loopback origin over a foreign Host: 403 origin_forbidden", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const port = new URL(yield* McpTestServer.origin).port
      expectForbidden(yield* fromPage(owner.token, "http://evil.example.com", "evil.example.com"))
      expectForbidden(yield* fromPage(owner.token, `http://evil.example.com:${port}`, `evil.example.com:${port}`))
      expectForbidden(yield* fromPage(owner.token, "http://localhost:3000", `127.0.0.1:${port}`))
      expectForbidden(yield* fromPage(owner.token, `http://127.0.0.1:${port}`, "evil.example.com"))
      expectForbidden(yield* fromPage(owner.token, "null", `127.0.0.1:${port}`))
    })
  )
})
