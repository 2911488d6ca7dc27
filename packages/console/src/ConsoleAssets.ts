import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"

/** A static file the console serves: its bytes, type and content hash (its URL's version). */
interface Asset {
  readonly body: Uint8Array
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
    return [name, { body, contentType: source.contentType, version }] as const
  })
)

export const assetsPrefix = "/app/assets"

/** An asset's URL, versioned by its content: cached for a year, a new build gets a new URL. */
export const assetPath = (name: string): string => `${assetsPrefix}/${name}?v=${assets.get(name)?.version ?? "0"}`

/** The bytes of each asset, for the console's bench. */
export const assetSizes = (): ReadonlyMap<string, number> =>
  new Map([...assets].map(([name, asset]) => [name, asset.body.byteLength]))

/** GET /app/assets/:name: the file, immutable; any other name 404. */
export const assetsRoute = HttpRouter.route(
  "GET",
  `${assetsPrefix}/:name`,
  Effect.map(HttpRouter.params, (params) => {
    const asset = assets.get(params.name ?? "")
    if (asset === undefined) {
      return HttpServerResponse.text("Not found", { status: 404, headers: { "x-content-type-options": "nosniff" } })
    }
    return HttpServerResponse.uint8Array(asset.body, {
      contentType: asset.contentType,
      headers: { "cache-control": "public, max-age=31536000, immutable", "x-content-type-options": "nosniff" }
    })
  })
)
