import { brotliCompressSync, constants, gzipSync } from "node:zlib"
import type { HttpServerRequest } from "effect/http"
import { HttpBody, HttpServerResponse } from "effect/http"

/** Bodies smaller than this go as they are: a header costs about what compressing them saves. */
export const compressFrom = 1024

export type Encoding = "br" | "gzip"

/**
 * The encoding a request accepts, brotli first: `Accept-Encoding` names it with a non-zero
 * weight (`gzip;q=0` refuses it). None: the body goes as it is.
 */
export const acceptedEncoding = (acceptEncoding: string | undefined): Encoding | undefined => {
  const accepted = new Set(
    (acceptEncoding ?? "")
      .toLowerCase()
      .split(",")
      .map((part) => part.trim().split(";"))
      .filter(([, weight]) => weight === undefined || !/^\s*q\s*=\s*0(\.0*)?\s*$/.test(weight))
      .map(([name]) => name?.trim() ?? "")
  )
  return accepted.has("br") ? "br" : accepted.has("gzip") ? "gzip" : undefined
}

/** The bytes in that encoding (brotli at a quality fit for pages made on each request). */
export const encode = (bytes: Uint8Array, encoding: Encoding, quality: "page" | "asset"): Uint8Array =>
  encoding === "gzip"
    ? gzipSync(bytes, { level: quality === "page" ? 6 : 9 })
    : brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: quality === "page" ? 5 : 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength
        }
      })

/**
 * A console page compressed for the request that asked for it: an HTML body of at least
 * `compressFrom` bytes, when the request accepts brotli or gzip. Status, headers and cookies stay.
 */
export const compressed = (
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse
): HttpServerResponse.HttpServerResponse => {
  const body = response.body
  if (body._tag !== "Uint8Array" || body.body.byteLength < compressFrom) return response
  if (!body.contentType.startsWith("text/html")) return response
  const encoding = acceptedEncoding(request.headers["accept-encoding"])
  if (encoding === undefined) return HttpServerResponse.setHeader(response, "vary", "Accept-Encoding")
  return HttpServerResponse.setBody(
    response,
    HttpBody.uint8Array(encode(body.body, encoding, "page"), body.contentType)
  ).pipe(HttpServerResponse.setHeaders({ "content-encoding": encoding, vary: "Accept-Encoding" }))
}
