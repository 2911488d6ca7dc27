import { type Context, Metric } from "effect"
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

/** `value`, kept under `key` in `map`: for the first lookup of a key, without a closure per lookup. */
const remember = <K, V>(map: Map<K, V>, key: K, value: V): V => {
  map.set(key, value)
  return value
}

const metricsOf = (method: string, route: string, status: number): RouteMetrics => {
  const routes = cache.get(method) ?? remember(cache, method, new Map())
  const statuses = routes.get(route) ?? remember(routes, route, new Map())
  return statuses.get(status) ?? remember(statuses, status, make(method, route, status))
}

/**
 * Counts one answered request into the HTTP metrics, in place (the caller's step has the context):
 * `route` is the route template (or `unmatched`), so that ids in paths never become labels.
 */
export const recordRequestIn = (
  context: Context.Context<never>,
  method: string,
  route: string,
  status: number,
  seconds: number
): void => {
  const metrics = metricsOf(method, route, status)
  metrics.requests.updateUnsafe(1, context)
  metrics.latency.updateUnsafe(seconds, context)
  metrics.errors?.updateUnsafe(1, context)
  metrics.limited?.updateUnsafe(1, context)
}
