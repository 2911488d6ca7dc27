import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { Effect } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { acceptedEncoding, type Encoding, encode } from "./Compression.ts"

/** A static file the console serves: its bytes (plain, brotli, gzip), type and content hash (its URL's version). */
interface Asset {
  readonly body: Uint8Array
  readonly encoded: Readonly<Record<Encoding, Uint8Array>>
  readonly contentType: string
  readonly version: string
}

/**
 * Resolved as packages are (the bundle of `npm start` too): the console's own script and
 * stylesheet, and uPlot's build, an npm dependency served as it ships.
 */
const sources: Readonly<Record<string, { readonly module: string; readonly contentType: string }>> = {
  "console.js": { module: "@margin/console/assets/console.js", contentType: "text/javascript; charset=utf-8" },
  "console.css": { module: "@margin/console/assets/console.css", contentType: "text/css; charset=utf-8" },
  "chart.js": { module: "@margin/console/assets/chart.js", contentType: "text/javascript; charset=utf-8" },
  "live.js": { module: "@margin/console/assets/live.js", contentType: "text/javascript; charset=utf-8" },
  "uplot.js": { module: "uplot/dist/uPlot.iife.min.js", contentType: "text/javascript; charset=utf-8" },
  "uplot.css": { module: "uplot/dist/uPlot.min.css", contentType: "text/css; charset=utf-8" }
}

const resolve = createRequire(import.meta.url).resolve

/** Read once, when the module loads: a handful of small files that never change while it runs. */
const assets: ReadonlyMap<string, Asset> = new Map(
  Object.entries(sources).map(([name, source]) => {
    const body = readFileSync(resolve(source.module))
    const version = createHash("sha256").update(body).digest("base64url").slice(0, 12)
    // Compressed once, at the best quality: they are served many times and never change.
    const encoded = { br: encode(body, "br", "asset"), gzip: encode(body, "gzip", "asset") }
    return [name, { body, encoded, contentType: source.contentType, version }] as const
  })
)

export const assetsPrefix = "/app/assets"

/** An asset's URL, versioned by its content: cached for a year, a new build gets a new URL. */
export const assetPath = (name: string): string => `${assetsPrefix}/${name}?v=${assets.get(name)?.version ?? "0"}`

/** The bytes of each asset, plain and as brotli sends it, for the console's bench. */
export const assetSizes = (): ReadonlyMap<string, { readonly plain: number; readonly br: number }> =>
  new Map([...assets].map(([name, asset]) => [name, { plain: asset.body.byteLength, br: asset.encoded.br.byteLength }]))

/** GET /app/assets/:name: the file, immutable, compressed when the request accepts it; any other name 404. */
export const assetsRoute = HttpRouter.route(
  "GET",
  `${assetsPrefix}/:name`,
  (request: HttpServerRequest.HttpServerRequest) =>
    Effect.map(HttpRouter.params, (params) => {
      const asset = assets.get(params.name ?? "")
      if (asset === undefined) {
        return HttpServerResponse.text("Not found", { status: 404, headers: { "x-content-type-options": "nosniff" } })
      }
      const encoding = acceptedEncoding(request.headers["accept-encoding"])
      const headers = {
        "cache-control": "public, max-age=31536000, immutable",
        "x-content-type-options": "nosniff",
        vary: "Accept-Encoding"
      }
      return encoding === undefined
        ? HttpServerResponse.uint8Array(asset.body, { contentType: asset.contentType, headers })
        : HttpServerResponse.uint8Array(asset.encoded[encoding], {
            contentType: asset.contentType,
            headers: { ...headers, "content-encoding": encoding }
          })
    })
)
