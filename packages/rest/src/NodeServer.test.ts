import { request, type Server } from "node:http"
import { connect, type Socket } from "node:net"
import { assert, describe, it } from "@effect/vitest"
import { defaultConnectionLimits } from "@margin/edge/serving"
import { Effect } from "effect"
import { createNodeServer, OneWriteResponse } from "./NodeServer.ts"

describe("NodeServer", () => {
  it.effect("responses ignore strictContentLength and still answer whole bodies", () =>
    Effect.gen(function* () {
      const body = JSON.stringify({ data: "x".repeat(40_000) })
      const server = createNodeServer()
      server.on("request", (_, response) => {
        assert.instanceOf(response, OneWriteResponse)
        response.strictContentLength = true
        assert.isFalse(response.strictContentLength)
        response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
        response.end(body)
      })
      yield* Effect.acquireRelease(
        Effect.callback<void>((resume) => {
          server.listen(0, "127.0.0.1", () => resume(Effect.void))
        }),
        () => Effect.sync(() => server.close())
      )
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      const received = yield* Effect.promise(
        () =>
          new Promise<string>((resolve, reject) => {
            request({ host: "127.0.0.1", port, path: "/" }, (response) => {
              const chunks: Array<Buffer> = []
              response.on("data", (chunk: Buffer) => chunks.push(chunk))
              response.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
              response.on("error", reject)
            })
              .on("error", reject)
              .end()
          })
      )
      assert.strictEqual(received, body)
    }).pipe(Effect.scoped)
  )

  it.effect("what Node's parser refuses is answered with the envelope and a request id, then closed", () =>
    Effect.gen(function* () {
      const server = createNodeServer()
      server.on("request", (_, response) => {
        response.writeHead(200, { "content-type": "application/json", "content-length": 2 })
        response.end("{}")
      })
      const port = yield* listening(server)
      const cases: ReadonlyArray<readonly [string, number, string]> = [
        ["GARBAGE\r\n\r\n", 400, "bad_request"],
        ["FOO /api/v1/runs HTTP/1.1\r\nHost: x\r\n\r\n", 400, "bad_request"],
        ["POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}", 400, "bad_request"],
        ["GET /api/v1/runs HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", 400, "bad_request"],
        [`GET /api/v1/runs HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, 431, "header_fields_too_large"]
      ]
      for (const [sent, status, code] of cases) {
        const received = yield* exchange(port, sent)
        const [head = "", body = ""] = received.split("\r\n\r\n")
        assert.match(head, new RegExp(`^HTTP/1.1 ${status} `), received)
        assert.match(head, /\r\ncontent-type: application\/json\r\n/)
        assert.match(head, /\r\nconnection: close/)
        const envelope: Readonly<Record<string, unknown>> = { ...Object(JSON.parse(body)) }
        assert.strictEqual(envelope.code, code)
        assert.isString(envelope.message)
        assert.strictEqual(`x-request-id: ${envelope.request_id}`, head.match(/x-request-id: \S+/)?.[0])
      }
      // After an answer on a kept-alive connection, garbage only closes it (nothing in between).
      const afterAnswer = yield* exchange(port, "GET / HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n")
      assert.strictEqual(afterAnswer.match(/HTTP\/1.1 /g)?.length, 1, afterAnswer)
      assert.match(afterAnswer, /^HTTP\/1.1 200 /)
    }).pipe(Effect.scoped)
  )
})

describe("NodeServer's limits on slow and numerous clients", () => {
  // Short limits so that the cut comes soon; what is asserted is that it comes, never when.
  const limits = { ...defaultConnectionLimits, headersTimeoutMs: 300, requestTimeoutMs: 600 }
  const answering = () => {
    const server = createNodeServer({ limits })
    server.on("request", (request, response) => {
      request.resume()
      request.on("end", () => {
        response.writeHead(200, { "content-type": "application/json", "content-length": 2 })
        response.end("{}")
      })
    })
    return server
  }

  it.effect(
    "a client that dribbles its headers is cut with 408 request_timeout",
    () =>
      Effect.gen(function* () {
        const port = yield* listening(answering())
        const received = yield* exchange(port, "POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nX-Slow: a")
        assert.match(received, /^HTTP\/1.1 408 /, received)
        assert.include(received, `"code":"request_timeout"`)
      }).pipe(Effect.scoped),
    { timeout: 20_000 }
  )

  it.effect(
    "a client that dribbles its body is cut",
    () =>
      Effect.gen(function* () {
        const port = yield* listening(answering())
        const received = yield* exchange(
          port,
          "POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
        )
        assert.notMatch(received, /^HTTP\/1.1 200 /, received)
      }).pipe(Effect.scoped),
    { timeout: 20_000 }
  )

  it.effect("beyond the connection cap, a new connection is closed unanswered; those within it are served", () =>
    Effect.gen(function* () {
      const server = createNodeServer({
        limits: { ...defaultConnectionLimits, maxConnections: 2, headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 }
      })
      server.on("request", (_, response) => {
        response.writeHead(200, { "content-type": "application/json", "content-length": 2 })
        response.end("{}")
      })
      const port = yield* listening(server)
      const held = yield* Effect.all([holdOpen(port), holdOpen(port)])
      assert.strictEqual(yield* exchange(port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"), "")
      for (const socket of held) socket.destroy()
    }).pipe(Effect.scoped)
  )
})

/** A connection the server has accepted (it answered one request on it), kept open. */
const holdOpen = (port: number) =>
  Effect.promise(
    () =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1", () => socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
        socket.once("data", () => resolve(socket))
        socket.on("error", reject)
      })
  )

/** Listens on an ephemeral port for the scope; answers the port. */
const listening = (server: Server) =>
  Effect.gen(function* () {
    yield* Effect.acquireRelease(
      Effect.callback<void>((resume) => {
        server.listen(0, "127.0.0.1", () => resume(Effect.void))
      }),
      () => Effect.sync(() => server.close())
    )
    const address = server.address()
    return typeof address === "object" && address !== null ? address.port : 0
  })

/** Sends raw bytes on a fresh connection; answers everything received until the server closes it (or resets it). */
const exchange = (port: number, sent: string) =>
  Effect.promise(
    () =>
      new Promise<string>((resolve) => {
        const chunks: Array<Buffer> = []
        const socket = connect(port, "127.0.0.1", () => socket.write(sent))
        socket.on("data", (chunk: Buffer) => chunks.push(chunk))
        socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")))
        // A reset is followed by close, which answers.
        socket.on("error", () => socket.destroy())
      })
  )
