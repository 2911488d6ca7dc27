import { request } from "node:http"
import { assert, describe, it } from "@effect/vitest"
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
})
