import { once } from "node:events"
import { createServer, type Server, type ServerResponse } from "node:http"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { answerWhileNotServing } from "./AnswerWhileNotServing.ts"

const listening = (server: Server) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      server.listen(0, "127.0.0.1")
      await once(server, "listening")
      const address = server.address()
      return `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
    }),
    () => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
  )

const get = (url: string, headers: Record<string, string> = {}) =>
  Effect.promise(async () => {
    const response = await fetch(`${url}/api/v1/runs`, { headers })
    const body: Record<string, unknown> = JSON.parse(await response.text())
    return { status: response.status, headers: response.headers, body }
  })

describe("answerWhileNotServing", () => {
  it.effect("before a handler is added: 503 service_unavailable in the envelope, with Retry-After", () =>
    Effect.gen(function* () {
      const url = yield* listening(answerWhileNotServing(createServer()))
      const answer = yield* get(url)
      assert.strictEqual(answer.status, 503)
      assert.strictEqual(answer.headers.get("retry-after"), "1")
      assert.strictEqual(answer.body.code, "service_unavailable")
      assert.strictEqual(answer.body.request_id, answer.headers.get("x-request-id"))
    }).pipe(Effect.scoped)
  )

  it.effect("once a handler serves, it alone answers; when it is removed, 503 again", () =>
    Effect.gen(function* () {
      const server = answerWhileNotServing(createServer())
      const url = yield* listening(server)
      const handler = (_request: unknown, response: ServerResponse) => {
        response.writeHead(200, { "content-type": "application/json" })
        response.end(JSON.stringify({ served: true }))
      }
      server.on("request", handler)
      const served = yield* get(url)
      assert.strictEqual(served.status, 200)
      assert.deepStrictEqual(served.body, { served: true })
      server.off("request", handler)
      assert.strictEqual((yield* get(url)).status, 503)
    }).pipe(Effect.scoped)
  )

  it.effect("a browser of an allowed origin gets the CORS headers it needs to read the 503; others get none", () =>
    Effect.gen(function* () {
      const url = yield* listening(answerWhileNotServing(createServer(), { corsOrigins: ["https://console.example"] }))
      const allowed = yield* get(url, { origin: "https://console.example" })
      assert.strictEqual(allowed.status, 503)
      assert.strictEqual(allowed.headers.get("access-control-allow-origin"), "https://console.example")
      assert.include(allowed.headers.get("access-control-expose-headers") ?? "", "retry-after")
      assert.strictEqual(allowed.headers.get("vary"), "Origin")
      const other = yield* get(url, { origin: "https://evil.example" })
      assert.strictEqual(other.status, 503)
      assert.isNull(other.headers.get("access-control-allow-origin"))
    }).pipe(Effect.scoped)
  )
})
