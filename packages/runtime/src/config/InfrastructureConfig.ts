import { defaultRequestsPerMinute } from "@margin/core/access/RateBudget"
import { Config, Duration, type Option, type Redacted, Schema } from "effect"

/** What the infrastructure of a process that serves requests is configured with (ServerInfrastructure). */
export interface InfrastructureOptions {
  /** Requests per minute per token / session user (the contract's default: 60). */
  readonly rateLimitPerMinute: number
  /** REDIS_URL: the shared budget lives in Redis; without it, in the database (rate_budget_windows). */
  readonly redisUrl: Option.Option<Redacted.Redacted<string>>
  /**
   * RATE_LIMIT_PROCESSES: how many serving processes share the budget. While the shared store
   * cannot count, each process admits this share of the limit (FallbackRateBudget).
   */
  readonly rateLimitProcesses: number
  /** RATE_LIMIT_REDIS_TIMEOUT: how long a count in Redis may take before the process falls back. */
  readonly redisTimeout: Duration.Duration
}

/** How long a count in Redis may take by default: well above a loaded machine's pauses. */
export const defaultRedisTimeout = Duration.seconds(2)

/** A whole number of at least 1, from its text. */
export const PositiveInt = Schema.FiniteFromString.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(1)))

/**
 * RATE_LIMIT_PER_MINUTE (default 60), REDIS_URL, RATE_LIMIT_PROCESSES (default 1) and
 * RATE_LIMIT_REDIS_TIMEOUT (default 2 s), read alike by every process that serves
 * requests (REST, MCP alone, MCP over stdio), so that they spend one budget with one limit.
 */
export const infrastructureConfig: Config.Config<InfrastructureOptions> = Config.all({
  rateLimitPerMinute: Config.schema(PositiveInt, "RATE_LIMIT_PER_MINUTE").pipe(
    Config.withDefault(defaultRequestsPerMinute)
  ),
  redisUrl: Config.option(Config.Redacted("REDIS_URL")),
  rateLimitProcesses: Config.schema(PositiveInt, "RATE_LIMIT_PROCESSES").pipe(Config.withDefault(1)),
  redisTimeout: Config.Duration("RATE_LIMIT_REDIS_TIMEOUT").pipe(Config.withDefault(defaultRedisTimeout))
})
