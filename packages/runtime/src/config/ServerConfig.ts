import { type ConnectionLimits, connectionLimitsConfig } from "@margin/edge/serving"
import { HttpApp } from "@margin/rest"
import { Config, Duration } from "effect"
import { type InfrastructureOptions, infrastructureConfig, PositiveInt } from "./InfrastructureConfig.ts"
import { type ListenConfig, restListenConfig } from "./ListenConfig.ts"

/**
 * The REST server's settings, from the environment, checked before anything starts. The
 * database (DATABASE_URL, DATA_DIR) and session keys (SESSION_PUBLIC_KEY, SESSION_JWKS_FILE,
 * SESSION_JWKS_URL, SESSION_ISSUER, SESSION_AUDIENCE) are read by the layers that use them; the
 * rate limit and REDIS_URL are every serving process's (`infrastructureConfig`).
 */
export interface ServerConfig extends InfrastructureOptions, ListenConfig {
  readonly maxBodyBytes: number
  /** PUBLIC_URL's origin: where clients reach the API (the OpenAPI document's server); null: unset. */
  readonly publicUrl: string | null
  readonly shutdownTimeout: Duration.Duration
  /** HTTP_HEADERS_TIMEOUT, HTTP_REQUEST_TIMEOUT, HTTP_KEEP_ALIVE_TIMEOUT, HTTP_MAX_REQUESTS_PER_CONNECTION, HTTP_MAX_CONNECTIONS. */
  readonly connectionLimits: ConnectionLimits
}

export const serverConfig: Config.Config<ServerConfig> = Config.all({
  listen: restListenConfig,
  infrastructure: infrastructureConfig,
  maxBodyBytes: Config.schema(PositiveInt, "MAX_BODY_BYTES").pipe(Config.withDefault(HttpApp.defaultMaxBodyBytes)),
  publicUrl: Config.option(Config.URL("PUBLIC_URL")).pipe(
    Config.map((url) => (url._tag === "Some" ? url.value.origin : null))
  ),
  shutdownTimeout: Config.Duration("SHUTDOWN_TIMEOUT").pipe(Config.withDefault(Duration.seconds(20))),
  connectionLimits: connectionLimitsConfig
}).pipe(Config.map(({ listen, infrastructure, ...server }) => ({ ...listen, ...server, ...infrastructure })))
