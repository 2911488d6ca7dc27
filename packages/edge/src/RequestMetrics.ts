import { Effect, Metric } from "effect"
import * as ServiceMetrics from "./ServiceMetrics.ts"

interface RouteMetrics {
  readonly requests: Metric.Counter<number>
  readonly errors: Metric.Counter<number> | null
  readonly latency: Metric.Histogram<number>
  readonly limited: Metric.Counter<number> | null
}

// One set of labelled metrics per method, route and status, made once: labelling allocates. Keyed
// method -> route -> status rather than by a joined string, which cost a new string to hash per request.
const cache = new Map<string, Map<string, Map<number, RouteMetrics>>>()

const make = (method: string, route: string, status: number): RouteMetrics => {
  const labels = { method, route, status: String(status) }
  return {
    requests: Metric.withAttributes(ServiceMetrics.httpRequests, labels),
    errors: status >= 400 ? Metric.withAttributes(ServiceMetrics.httpErrors, labels) : null,
    latency: Metric.withAttributes(ServiceMetrics.httpLatency, { method, route }),
    limited: status === 429 ? Metric.withAttributes(ServiceMetrics.rateLimited, { route }) : null
  }
}

/** The value under `key`, made the first time it is asked for. */
const child = <K, V>(parent: Map<K, V>, key: K, empty: () => V): V => {
  const known = parent.get(key)
  if (known !== undefined) return known
  const made = empty()
  parent.set(key, made)
  return made
}

const metricsOf = (method: string, route: string, status: number): RouteMetrics =>
  child(
    child(
      child(cache, method, () => new Map()),
      route,
      () => new Map()
    ),
    status,
    () => make(method, route, status)
  )

/**
 * Counts one answered request into the HTTP metrics. `route` is the route template (or
 * `unmatched`), so that ids in paths never become labels. One effect for all the updates (what
 * `Metric.update` does for each), as it runs on every request.
 */
export const recordRequest = (method: string, route: string, status: number, seconds: number): Effect.Effect<void> =>
  Effect.contextWith((context) =>
    Effect.sync(() => {
      const metrics = metricsOf(method, route, status)
      metrics.requests.updateUnsafe(1, context)
      metrics.latency.updateUnsafe(seconds, context)
      metrics.errors?.updateUnsafe(1, context)
      metrics.limited?.updateUnsafe(1, context)
    })
  )
