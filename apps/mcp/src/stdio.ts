import { NodeRuntime, NodeServices, NodeStdio } from "@effect/platform-node"
import { BackgroundRuns } from "@margin/edge/BackgroundRuns"
import * as ServerInfrastructure from "@margin/edge/ServerInfrastructure"
import { SessionVerifier } from "@margin/edge/SessionJwt"
import { UseCasesLayer } from "@margin/edge/UseCases"
import * as McpStdio from "@margin/mcp-server/McpStdio"
import { Config, Effect, Layer, Logger, References } from "effect"

/**
 * The MCP server over stdin/stdout for a local agent that starts it (Claude Desktop, Claude
 * Code): the API token comes from MARGIN_TOKEN, the database from DATABASE_URL or DATA_DIR like
 * the other processes. stdout carries the protocol, so every log line goes to stderr.
 */
const Server = Layer.unwrap(
  Effect.map(ServerInfrastructure.optionsConfig, (infrastructure) =>
    McpStdio.layer.pipe(
      Layer.provide([BackgroundRuns.layer, NodeStdio.layer]),
      Layer.provide(UseCasesLayer),
      Layer.provide(SessionVerifier.layer.pipe(Layer.provide(NodeServices.layer))),
      Layer.provideMerge(ServerInfrastructure.layer(infrastructure))
    )
  )
)

/** JSON lines on stderr, at LOG_LEVEL (default Warn: an agent's console is not a log viewer). */
const Logging = Layer.unwrap(
  Effect.map(Config.LogLevel("LOG_LEVEL").pipe(Config.withDefault("Warn")), (level) =>
    Layer.mergeAll(
      Logger.layer([Logger.withConsoleError(Logger.formatJson)]),
      Layer.succeed(References.MinimumLogLevel, level),
      Layer.succeed(Logger.LogToStderr, true)
    )
  )
)

Layer.launch(Server).pipe(Effect.provide(Logging), NodeRuntime.runMain)
