import { defaultRequestsPerMinute } from "@margin/core/ports/RateBudget"
import { Config, Duration, type Option, type Redacted, Schema } from "effect"
import { defaultMaxBodyBytes } from "./HttpApp.ts"

/**
 * The REST server's settings, from the environment, checked before anything starts. The
 * database (DATABASE_URL, DATA_DIR) and session keys (SESSION_PUBLIC_KEY, SESSION_JWKS_FILE,
 * SESSION_JWKS_URL, SESSION_ISSUER, SESSION_AUDIENCE) are read by the layers that use them.
 */
export interface ServerConfig {
  readonly port: number
  readonly host: string
  readonly redisUrl: Option.Option<Redacted.Redacted<string>>
  readonly rateLimitPerMinute: number
  readonly maxBodyBytes: number
  readonly shutdownTimeout: Duration.Duration
}

const PositiveInt = Schema.FiniteFromString.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(1)))

export const serverConfig: Config.Config<ServerConfig> = Config.all({
  port: Config.Port("PORT").pipe(Config.withDefault(8787)),
  host: Config.NonEmptyString("HOST").pipe(Config.withDefault("127.0.0.1")),
  redisUrl: Config.option(Config.Redacted("REDIS_URL")),
  rateLimitPerMinute: Config.schema(PositiveInt, "RATE_LIMIT_PER_MINUTE").pipe(
    Config.withDefault(defaultRequestsPerMinute)
  ),
  maxBodyBytes: Config.schema(PositiveInt, "MAX_BODY_BYTES").pipe(Config.withDefault(defaultMaxBodyBytes)),
  shutdownTimeout: Config.Duration("SHUTDOWN_TIMEOUT").pipe(Config.withDefault(Duration.seconds(20)))
})
