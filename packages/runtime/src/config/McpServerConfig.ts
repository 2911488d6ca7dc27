import { connectionLimitsConfig } from "@margin/edge/serving"
import { Config, Duration } from "effect"
import { infrastructureConfig } from "./InfrastructureConfig.ts"

/**
 * The standalone MCP server's settings, from the environment. The rate limit and REDIS_URL are
 * the REST server's (`infrastructureConfig`), so both spend one budget; the
 * database (DATABASE_URL, DATA_DIR), MCP_ALLOWED_ORIGINS and MCP_PUBLIC_URL are read by the
 * layers that use them.
 */
export const mcpServerConfig = Config.all({
  port: Config.Port("MCP_PORT").pipe(Config.withDefault(8788)),
  host: Config.NonEmptyString("HOST").pipe(Config.withDefault("127.0.0.1")),
  shutdownTimeout: Config.Duration("SHUTDOWN_TIMEOUT").pipe(Config.withDefault(Duration.seconds(20))),
  connectionLimits: connectionLimitsConfig,
  infrastructure: infrastructureConfig
})
