import { timingSafeEqual } from "node:crypto"
import { WriteBackOutbox } from "@margin/core/writeback/WriteBackOutbox"
import { Clock, Config, Effect, Layer, Metric, Option, Redacted } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { PrometheusMetrics } from "effect/observability"
import { refreshProcessMetrics } from "./ProcessMetrics.ts"
import * as ServiceMetrics from "./ServiceMetrics.ts"

/** Where Prometheus scrapes. */
export const metricsPath = "/metrics"

/** METRICS_TOKEN: when set, a scrape must send `Authorization: Bearer <token>`; unset, /metrics is open. */
export const metricsTokenConfig = Config.option(Config.Redacted("METRICS_TOKEN"))

const sameSecret = (given: string, expected: string): boolean => {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

// The outbox gauges are read from the database when scraped; a database that cannot answer leaves them as they were.
const refreshOutbox = Effect.gen(function* () {
  const outbox = yield* WriteBackOutbox
  const now = yield* Clock.currentTimeMillis
  const depth = yield* outbox.depth(now)
  yield* Metric.update(ServiceMetrics.outboxDepth, depth.count)
  yield* Metric.update(ServiceMetrics.outboxOldestAge, (depth.oldestAgeMs ?? 0) / 1000)
}).pipe(Effect.catch((error) => Effect.logWarning("metrics: the outbox depth could not be read", error)))

const unauthorized = HttpServerResponse.jsonUnsafe(
  { code: "unauthorized", message: "Send Authorization: Bearer <METRICS_TOKEN> to read the metrics." },
  { status: 401, headers: { "www-authenticate": 'Bearer realm="metrics"' } }
)

/**
 * GET /metrics: every metric of this process (ServiceMetrics) in the Prometheus text format, with
 * the outbox depth and age and the process's CPU and memory read at scrape time. Open, or behind
 * METRICS_TOKEN. Served by the REST app, the MCP server and the worker (OperationsServer).
 */
export const layer = Layer.unwrap(
  Effect.map(metricsTokenConfig, (token) =>
    HttpRouter.add(
      "GET",
      metricsPath,
      Effect.gen(function* () {
        if (Option.isSome(token)) {
          const request = yield* HttpServerRequest.HttpServerRequest
          const header = request.headers.authorization ?? ""
          const given = header.startsWith("Bearer ") ? header.slice("Bearer ".length) : ""
          if (!sameSecret(given, Redacted.value(token.value))) return unauthorized
        }
        yield* refreshOutbox
        yield* refreshProcessMetrics
        const text = yield* PrometheusMetrics.format()
        return HttpServerResponse.text(text, { contentType: "text/plain; version=0.0.4; charset=utf-8" })
      })
    )
  )
)
