import { connect, createServer } from "node:net"
import { assert, describe, it } from "@effect/vitest"
import * as MemoryAdapters from "@margin/core/memory/MemoryAdapters"
import { Readiness } from "@margin/edge/telemetry"
import { Effect, Layer, Logger } from "effect"
import * as OperationsServer from "./OperationsServer.ts"

/** A port held by another listener until the scope closes. */
const takenPort = Effect.acquireRelease(
  Effect.callback<{ readonly port: number; readonly close: () => void }>((resume) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      resume(Effect.succeed({ port, close: () => server.close() }))
    })
  }),
  (held) => Effect.sync(() => held.close())
)

const status = (url: string) =>
  Effect.promise(() =>
    fetch(url).then(
      (response) => response.status,
      () => 0
    )
  )

const serving = (port: number) =>
  OperationsServer.layer({ host: "127.0.0.1", port }).pipe(
    Layer.provide([MemoryAdapters.layer, Readiness.layerAlwaysReady])
  )

describe("OperationsServer", () => {
  it.live("serves /metrics, /healthz and /readyz on its port", () =>
    Effect.gen(function* () {
      const held = yield* takenPort
      // Free the port for the server: a port that was free a moment ago.
      held.close()
      yield* Layer.build(serving(held.port))
      const base = `http://127.0.0.1:${held.port}`
      assert.strictEqual(yield* status(`${base}/healthz`), 200)
      assert.strictEqual(yield* status(`${base}/readyz`), 200)
      assert.strictEqual(yield* status(`${base}/metrics`), 200)
    }).pipe(Effect.scoped)
  )

  it.live("what is not HTTP is answered with the error envelope, as on the REST port", () =>
    Effect.gen(function* () {
      const held = yield* takenPort
      held.close()
      yield* Layer.build(serving(held.port))
      const received = yield* Effect.promise(
        () =>
          new Promise<string>((resolve, reject) => {
            const chunks: Array<Buffer> = []
            const socket = connect(held.port, "127.0.0.1", () => socket.write("GARBAGE\r\n\r\n"))
            socket.on("data", (chunk: Buffer) => chunks.push(chunk))
            socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")))
            socket.on("error", reject)
          })
      )
      const [head = "", body = ""] = received.split("\r\n\r\n")
      assert.match(head, /^HTTP\/1.1 400 /, received)
      assert.strictEqual(JSON.parse(body).code, "bad_request")
    }).pipe(Effect.scoped)
  )

  it.live("a port already taken is logged as an error and the process goes on", () =>
    Effect.gen(function* () {
      const held = yield* takenPort
      const errors: Array<string> = []
      const capture = Logger.make((entry) => {
        if (entry.logLevel === "Error") errors.push(String(entry.message))
      })
      yield* Layer.build(serving(held.port).pipe(Layer.provide(Logger.layer([capture]))))
      assert.strictEqual(errors.length, 1)
      assert.include(errors[0], `metrics: cannot listen on 127.0.0.1:${held.port}`)
    }).pipe(Effect.scoped)
  )
})
