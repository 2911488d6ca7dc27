import { defaultRequestsPerMinute } from "@margin/core/ports/RateBudget"
import { Config, type Option, type Redacted, Schema } from "effect"

/** What the infrastructure of a process that serves requests is configured with (ServerInfrastructure). */
export interface InfrastructureOptions {
  /** Requests per minute per token / session user (the contract's default: 60). */
  readonly rateLimitPerMinute: number
  /** REDIS_URL: the shared budget lives in Redis; without it, in the database (rate_budget_windows). */
  readonly redisUrl: Option.Option<Redacted.Redacted<string>>
}

/** A whole number of at least 1, from its text. */
export const PositiveInt = Schema.FiniteFromString.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(1)))

/**
 * RATE_LIMIT_PER_MINUTE (default 60) and REDIS_URL, read alike by every process that serves
 * requests (REST, MCP alone, MCP over stdio), so that they spend one budget with one limit.
 */
export const infrastructureConfig: Config.Config<InfrastructureOptions> = Config.all({
  rateLimitPerMinute: Config.schema(PositiveInt, "RATE_LIMIT_PER_MINUTE").pipe(
    Config.withDefault(defaultRequestsPerMinute)
  ),
  redisUrl: Config.option(Config.Redacted("REDIS_URL"))
})
