import { NodeServices } from "@effect/platform-node"
import { Config, Effect, Layer, Logger, References } from "effect"
import { stdoutJsonLogger } from "./JsonLinesLogger.ts"
import * as ServerInfrastructure from "./ServerInfrastructure.ts"
import { SessionVerifier } from "./SessionJwt.ts"
import { UseCasesLayer } from "./UseCases.ts"

/**
 * What every long-running front-door process (REST, MCP alone, MCP over stdio) stands on: the
 * use cases, `Authenticate` and `Approval` (`UseCasesLayer`) and the session verifier, over the
 * real infrastructure (`ServerInfrastructure`: migrated database, adapters, store router, the
 * shared rate budget), which it also provides.
 */
export const useCasesLayer = (options: ServerInfrastructure.ServerInfrastructureOptions) =>
  UseCasesLayer.pipe(
    Layer.provideMerge(SessionVerifier.layer.pipe(Layer.provide(NodeServices.layer))),
    Layer.provideMerge(ServerInfrastructure.layer(options))
  )

const level = (fallback: "Info" | "Warn") => Config.LogLevel("LOG_LEVEL").pipe(Config.withDefault(fallback))

/** One JSON line per log entry on stdout (written once per event-loop turn), at LOG_LEVEL (default Info). */
export const loggingLayer = Layer.unwrap(
  Effect.map(level("Info"), (minimum) =>
    Layer.mergeAll(Logger.layer([stdoutJsonLogger]), Layer.succeed(References.MinimumLogLevel, minimum))
  )
)

/**
 * JSON lines on stderr, at LOG_LEVEL (default Warn), for processes whose stdout carries a
 * protocol (MCP over stdio).
 */
export const loggingLayerStderr = Layer.unwrap(
  Effect.map(level("Warn"), (minimum) =>
    Layer.mergeAll(
      Logger.layer([Logger.withConsoleError(Logger.formatJson)]),
      Layer.succeed(References.MinimumLogLevel, minimum),
      Layer.succeed(Logger.LogToStderr, true)
    )
  )
)
