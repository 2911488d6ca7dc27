import type { Server, ServerOptions } from "node:http"
import { Config, Duration, Schema } from "effect"

/** How long and how many: what a slow or greedy client may hold of a server. */
export interface ConnectionLimits {
  /** The request line and headers must arrive within this (then 408 request_timeout, closed). */
  readonly headersTimeoutMs: number
  /** The whole request, headers and body, must arrive within this (then 408, or closed). */
  readonly requestTimeoutMs: number
  /** A kept-alive connection idle this long between requests is closed. */
  readonly keepAliveTimeoutMs: number
  /** Requests served on one kept-alive connection before it is closed (the last is answered `Connection: close`). */
  readonly maxRequestsPerConnection: number
  /** Connections open at once per process; one more is closed unanswered. */
  readonly maxConnections: number
}

/**
 * Node's own defaults hold a dribbled header for 60 s and a body for 300 s. A real client sends
 * its headers in one packet and a 1 MiB body (the largest we take) in well under 30 s.
 */
export const defaultConnectionLimits: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxRequestsPerConnection: 1_000,
  maxConnections: 1_024
}

const PositiveInt = Schema.FiniteFromString.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(1)))

const milliseconds = (name: string, fallback: number) =>
  Config.Duration(name).pipe(
    Config.map((duration) => Math.max(1, Duration.toMillis(duration))),
    Config.withDefault(fallback)
  )

/**
 * HTTP_HEADERS_TIMEOUT (10 seconds), HTTP_REQUEST_TIMEOUT (30 seconds), HTTP_KEEP_ALIVE_TIMEOUT
 * (5 seconds), HTTP_MAX_REQUESTS_PER_CONNECTION (1000), HTTP_MAX_CONNECTIONS (1024). The headers'
 * timeout is at most the request's.
 */
export const connectionLimitsConfig: Config.Config<ConnectionLimits> = Config.all({
  headersTimeoutMs: milliseconds("HTTP_HEADERS_TIMEOUT", defaultConnectionLimits.headersTimeoutMs),
  requestTimeoutMs: milliseconds("HTTP_REQUEST_TIMEOUT", defaultConnectionLimits.requestTimeoutMs),
  keepAliveTimeoutMs: milliseconds("HTTP_KEEP_ALIVE_TIMEOUT", defaultConnectionLimits.keepAliveTimeoutMs),
  maxRequestsPerConnection: Config.schema(PositiveInt, "HTTP_MAX_REQUESTS_PER_CONNECTION").pipe(
    Config.withDefault(defaultConnectionLimits.maxRequestsPerConnection)
  ),
  maxConnections: Config.schema(PositiveInt, "HTTP_MAX_CONNECTIONS").pipe(
    Config.withDefault(defaultConnectionLimits.maxConnections)
  )
}).pipe(
  // Node's rule: the headers' timeout is part of the request's.
  Config.map((limits) => ({ ...limits, headersTimeoutMs: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) }))
)

/**
 * The timeouts, as `createServer` options. Node checks them every `connectionsCheckingInterval`
 * (30 s by default, which would let a slow client stay up to 30 s past its limit): here every
 * second, or the headers' timeout when shorter.
 */
export const timeoutOptions = (limits: ConnectionLimits): ServerOptions => ({
  headersTimeout: limits.headersTimeoutMs,
  requestTimeout: limits.requestTimeoutMs,
  keepAliveTimeout: limits.keepAliveTimeoutMs,
  connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs)
})

/** Sets the caps of `limits` on a server created with `timeoutOptions(limits)`: connections, and requests per connection. */
export const limitConnections = <S extends Server>(server: S, limits: ConnectionLimits): S => {
  server.maxRequestsPerSocket = limits.maxRequestsPerConnection
  server.maxConnections = limits.maxConnections
  return server
}
