import { makeRateWindows } from "@margin/core/memory/RateWindows"
import { ClientMetadataDocuments, ClientMetadataUnavailable } from "@margin/core/oauth/ClientMetadataDocuments"
import { Cache, Clock, Duration, Effect, Exit } from "effect"

/**
 * Outbound fetches of client ID metadata documents allowed per minute: per document (its URL) and
 * in all. Every authorization request of a metadata-document client reads its document, so without
 * a budget anyone could make this service fetch as fast as they can send requests.
 */
export const documentFetchBudget = { perDocumentPerMinute: 10, perMinute: 100 } as const

/** Documents kept at once (the least recently used leave first). */
export const cacheCapacity = 1_000

/** The longest a document is kept, whatever its max-age says. */
export const maxCacheSeconds = 24 * 60 * 60

/**
 * How long a document may be kept by its `Cache-Control` (RFC 9111): `max-age`, at most a day;
 * `no-store` and `no-cache`, no header or no max-age: not kept.
 */
export const maxAgeOf = (cacheControl: string | undefined): number => {
  const directives = (cacheControl ?? "")
    .toLowerCase()
    .split(",")
    .map((directive) => directive.trim())
  if (directives.includes("no-store") || directives.includes("no-cache")) return 0
  const maxAge = directives.find((directive) => directive.startsWith("max-age="))
  const seconds = maxAge === undefined ? Number.NaN : Number(maxAge.slice("max-age=".length))
  return Number.isInteger(seconds) && seconds > 0 ? Math.min(seconds, maxCacheSeconds) : 0
}

const refused = (url: string, reason: string) => new ClientMetadataUnavailable({ url, reason })

/**
 * `inner` (the fetching adapter) behind a bounded cache and a fetch budget: concurrent reads of one
 * document share one fetch; a document is kept as its Cache-Control allows (`maxAgeOf`, in
 * `maxAgeSeconds`); failures are not kept; a fetch beyond `documentFetchBudget` is refused (the
 * authorization page says to try again shortly).
 */
export const cached = (inner: ClientMetadataDocuments["Service"]) =>
  Effect.gen(function* () {
    const perDocument = makeRateWindows(documentFetchBudget.perDocumentPerMinute)
    const inAll = makeRateWindows(documentFetchBudget.perMinute)
    const budgeted = (url: string) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        if (perDocument.consume(url, now)._tag === "Limited") {
          return Effect.fail(refused(url, "fetched too often; try again in a minute"))
        }
        if (inAll.consume("all", now)._tag === "Limited") {
          return Effect.fail(refused(url, "too many client documents fetched; try again in a minute"))
        }
        return inner.fetch(url)
      })
    const cache = yield* Cache.makeWith(budgeted, {
      capacity: cacheCapacity,
      timeToLive: (exit) =>
        Exit.isSuccess(exit)
          ? Duration.seconds(Math.min(exit.value.maxAgeSeconds ?? 0, maxCacheSeconds))
          : Duration.zero
    })
    return ClientMetadataDocuments.of({ fetch: (url) => Cache.get(cache, url) })
  })
