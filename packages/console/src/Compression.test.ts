import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { assert, describe, it } from "@effect/vitest"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { acceptedEncoding, compressed, compressFrom } from "./Compression.ts"

const requestWith = (acceptEncoding: string | undefined) =>
  HttpServerRequest.fromWeb(
    new Request(
      "http://localhost/app",
      acceptEncoding === undefined ? {} : { headers: { "accept-encoding": acceptEncoding } }
    )
  )

const page = (size: number) =>
  HttpServerResponse.text("<p>x</p>".repeat(Math.ceil(size / 8)).slice(0, size), {
    status: 201,
    contentType: "text/html; charset=utf-8",
    headers: { "cache-control": "no-store" }
  })

const bytesOf = (response: HttpServerResponse.HttpServerResponse): Uint8Array =>
  response.body._tag === "Uint8Array" ? response.body.body : new Uint8Array()

describe("acceptedEncoding", () => {
  const table: ReadonlyArray<readonly [string | undefined, string | undefined]> = [
    [undefined, undefined],
    ["", undefined],
    ["identity", undefined],
    ["gzip", "gzip"],
    ["gzip, deflate, br", "br"],
    ["br;q=0, gzip", "gzip"],
    ["gzip;q=0", undefined],
    ["gzip;q=0.0, br;q=0.5", "br"],
    ["GZIP;Q=0.8", "gzip"],
    ["deflate", undefined]
  ]
  for (const [header, expected] of table) {
    it(`${JSON.stringify(header)} -> ${String(expected)}`, () => assert.strictEqual(acceptedEncoding(header), expected))
  }
})

describe("compressed", () => {
  it("compresses an HTML page for a client that accepts it, keeping status and headers", () => {
    const plain = page(4 * compressFrom)
    const br = compressed(requestWith("gzip, br"), plain)
    assert.strictEqual(br.headers["content-encoding"], "br")
    assert.strictEqual(br.headers.vary, "Accept-Encoding")
    assert.strictEqual(br.headers["cache-control"], "no-store")
    assert.strictEqual(br.status, 201)
    assert.deepStrictEqual(new Uint8Array(brotliDecompressSync(bytesOf(br))), bytesOf(plain))
    const gzip = compressed(requestWith("gzip"), plain)
    assert.strictEqual(gzip.headers["content-encoding"], "gzip")
    assert.deepStrictEqual(new Uint8Array(gunzipSync(bytesOf(gzip))), bytesOf(plain))
  })

  it("leaves alone a small page, a client that accepts nothing, and a body that is not HTML", () => {
    assert.isUndefined(compressed(requestWith("br"), page(compressFrom - 1)).headers["content-encoding"])
    const unaccepted = compressed(requestWith(undefined), page(4 * compressFrom))
    assert.isUndefined(unaccepted.headers["content-encoding"])
    assert.strictEqual(unaccepted.headers.vary, "Accept-Encoding")
    const text = HttpServerResponse.text("x".repeat(4 * compressFrom))
    assert.isUndefined(compressed(requestWith("br"), text).headers["content-encoding"])
  })
})
