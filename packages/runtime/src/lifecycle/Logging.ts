import { Config, Effect, Layer, Logger, References } from "effect"
import { stdoutJsonLogger } from "./JsonLinesLogger.ts"

/** How a process logs: the one setup of every process, its JSON lines on stdout or on stderr. */
export type Logging = Layer.Layer<never, Config.ConfigError>

const level = (fallback: "Info" | "Warn") => Config.LogLevel("LOG_LEVEL").pipe(Config.withDefault(fallback))

/**
 * One JSON line per log entry on stdout (written once per event-loop turn, JsonLinesLogger), at
 * LOG_LEVEL (default Info): the REST server, the MCP server and the workers.
 */
export const stdout: Logging = Layer.unwrap(
  Effect.map(level("Info"), (minimum) =>
    Layer.mergeAll(Logger.layer([stdoutJsonLogger]), Layer.succeed(References.MinimumLogLevel, minimum))
  )
)

/**
 * JSON lines on stderr, at LOG_LEVEL (default Warn), for processes whose stdout carries a
 * protocol (MCP over stdio).
 */
export const stderr: Logging = Layer.unwrap(
  Effect.map(level("Warn"), (minimum) =>
    Layer.mergeAll(
      Logger.layer([Logger.withConsoleError(Logger.formatJson)]),
      Layer.succeed(References.MinimumLogLevel, minimum),
      Layer.succeed(Logger.LogToStderr, true)
    )
  )
)
