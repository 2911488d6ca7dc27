import { Config, Effect, Layer, Logger, References } from "effect"
import { stdoutJsonLogger } from "./JsonLinesLogger.ts"
import { type LogFormat, logFormatConfig } from "./LogFormat.ts"

/** How a process logs: the one setup of every process, its lines on stdout or on stderr. */
export type Logging = Layer.Layer<never, Config.ConfigError>

const level = (fallback: "Info" | "Warn") => Config.LogLevel("LOG_LEVEL").pipe(Config.withDefault(fallback))

/** Effect's pretty console lines (time, level, message, then the annotations), colored on a terminal. */
const prettyLogger = Logger.consolePretty({ colors: "auto", mode: "tty" })

/**
 * The logs on stdout, at LOG_LEVEL (default Info): the REST server, the MCP server and the
 * workers. As JSON lines (one object a line, written once per event-loop turn: JsonLinesLogger,
 * the path every deployment takes), or pretty for a terminal (`LogFormat`: LOG_FORMAT, else
 * whether stdout is a terminal).
 */
export const stdoutWith = (format: Config.Config<LogFormat>): Logging =>
  Layer.unwrap(
    Effect.map(Effect.all([level("Info"), format]), ([minimum, chosen]) =>
      Layer.mergeAll(
        Logger.layer([chosen === "pretty" ? prettyLogger : stdoutJsonLogger]),
        Layer.succeed(References.MinimumLogLevel, minimum)
      )
    )
  )

export const stdout: Logging = stdoutWith(logFormatConfig(process.stdout.isTTY === true))

/**
 * The logs on stderr, at LOG_LEVEL (default Warn), for processes whose stdout carries a protocol
 * (MCP over stdio): JSON lines, or pretty when LOG_FORMAT says so or stderr is a terminal.
 */
export const stderr: Logging = Layer.unwrap(
  Effect.map(Effect.all([level("Warn"), logFormatConfig(process.stderr.isTTY === true)]), ([minimum, chosen]) =>
    Layer.mergeAll(
      Logger.layer([chosen === "pretty" ? prettyLogger : Logger.withConsoleError(Logger.formatJson)]),
      Layer.succeed(References.MinimumLogLevel, minimum),
      Layer.succeed(Logger.LogToStderr, true)
    )
  )
)
