import { createServer, type Server } from "node:http"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { cached } from "./CachedClientMetadataDocuments.ts"
import { make, maxDocumentBytes } from "./NodeClientMetadataDocuments.ts"

const portOf = (server: Server): number => {
  const address = server.address()
  return typeof address === "object" && address !== null ? address.port : 0
}

/** How many times the document server served `/client.json`. */
const served = { count: 0 }

/** A document server on this machine's loopback: `/client.json`, `/big.json`, `/moved.json`. */
const documentServer = Effect.acquireRelease(
  Effect.promise(
    () =>
      new Promise<{ readonly server: Server; readonly base: string }>((resolve) => {
        const server = createServer((request, response) => {
          const base = `http://127.0.0.1:${portOf(server)}`
          if (request.url === "/client.json") {
            served.count++
            response.writeHead(200, { "content-type": "application/json", "cache-control": "public, max-age=300" })
            response.end(
              JSON.stringify({
                client_id: `${base}/client.json`,
                client_name: "Local",
                redirect_uris: ["http://127.0.0.1:9/cb"]
              })
            )
          } else if (request.url === "/big.json") {
            response.writeHead(200, { "content-type": "application/json" })
            response.end(JSON.stringify({ client_id: "x", padding: "p".repeat(maxDocumentBytes) }))
          } else {
            response.writeHead(302, { location: "/client.json" }).end()
          }
        })
        server.listen(0, "127.0.0.1", () => resolve({ server, base: `http://127.0.0.1:${portOf(server)}` }))
      })
  ),
  ({ server }) => Effect.promise(() => new Promise<void>((done) => server.close(() => done())))
)

const reasonOf = (effect: Effect.Effect<unknown, { readonly reason: string }>) =>
  Effect.map(Effect.flip(effect), (failure) => failure.reason)

describe("NodeClientMetadataDocuments", () => {
  it.effect("refuses private, loopback and link-local addresses before connecting, and plain http", () =>
    Effect.gen(function* () {
      const strict = make({ allowLoopback: false })
      for (const url of [
        "https://10.0.0.1/client.json",
        "https://169.254.169.254/latest",
        "https://[::1]/c.json",
        "https://127.0.0.1/c.json"
      ]) {
        assert.match(yield* reasonOf(strict.fetch(url)), /address not allowed/, url)
      }
      assert.match(yield* reasonOf(strict.fetch("http://agent.example/client.json")), /not an https URL/)
      assert.match(yield* reasonOf(strict.fetch("not a url")), /not a URL/)
    })
  )

  it.effect("a name that resolves to loopback is refused at lookup", () =>
    Effect.gen(function* () {
      const { base } = yield* documentServer
      const port = new URL(base).port
      assert.match(
        yield* reasonOf(make({ allowLoopback: false }).fetch(`https://localhost:${port}/client.json`)),
        /not allowed/
      )
    }).pipe(Effect.scoped)
  )

  it.effect("with loopback allowed (development): the document; too large, or a redirect, refused", () =>
    Effect.gen(function* () {
      const { base } = yield* documentServer
      const local = make({ allowLoopback: true })
      const document = yield* local.fetch(`${base}/client.json`)
      assert.strictEqual(document.clientId, `${base}/client.json`)
      assert.deepStrictEqual(document.redirectUris, ["http://127.0.0.1:9/cb"])
      assert.strictEqual(document.maxAgeSeconds, 300)
      assert.match(yield* reasonOf(local.fetch(`${base}/big.json`)), /larger than/)
      assert.match(yield* reasonOf(local.fetch(`${base}/moved.json`)), /302/)
    }).pipe(Effect.scoped)
  )

  it.effect("behind the cache: 100 parallel authorization requests' reads make one outbound fetch", () =>
    Effect.gen(function* () {
      const { base } = yield* documentServer
      const documents = yield* cached(make({ allowLoopback: true }))
      const before = served.count
      const read = yield* Effect.forEach(
        Array.from({ length: 100 }, () => `${base}/client.json`),
        (url) => documents.fetch(url),
        { concurrency: "unbounded" }
      )
      assert.strictEqual(read.length, 100)
      // max-age=300: later reads within it are served from the cache too.
      yield* documents.fetch(`${base}/client.json`)
      assert.strictEqual(served.count - before, 1)
    }).pipe(Effect.scoped)
  )
})
