import { createServer } from "node:http"
import { NodeHttpServer, NodeRuntime, NodeServices } from "@effect/platform-node"
import { BackgroundRuns } from "@margin/edge/BackgroundRuns"
import * as ServerInfrastructure from "@margin/edge/ServerInfrastructure"
import { SessionVerifier } from "@margin/edge/SessionJwt"
import { UseCasesLayer } from "@margin/edge/UseCases"
import * as McpRoutes from "@margin/mcp-server/McpRoutes"
import { McpSettings } from "@margin/mcp-server/McpSettings"
import { Config, Effect, Layer, Logger, References } from "effect"
import { HttpRouter } from "effect/http"
import { mcpServerConfig } from "./McpServerConfig.ts"

/**
 * The MCP server alone (`npm start` serves it too, beside REST): Streamable HTTP at /mcp on
 * HOST:MCP_PORT, over the same infrastructure as REST (database, store router, shared budget).
 * Sessions live in this process: behind more than one replica, route by Mcp-Session-Id (docs/mcp.md).
 */
const Server = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* mcpServerConfig
    return HttpRouter.serve(McpRoutes.layer).pipe(
      Layer.provide([BackgroundRuns.layer, McpSettings.layerConfig]),
      Layer.provide(UseCasesLayer),
      Layer.provide(SessionVerifier.layer.pipe(Layer.provide(NodeServices.layer))),
      Layer.provideMerge(ServerInfrastructure.layer(config.infrastructure)),
      Layer.provide(
        NodeHttpServer.layer(createServer, {
          port: config.port,
          host: config.host,
          gracefulShutdownTimeout: config.shutdownTimeout
        })
      )
    )
  })
)

/** One JSON line per log entry, at LOG_LEVEL (default Info). */
const Logging = Layer.unwrap(
  Effect.map(Config.LogLevel("LOG_LEVEL").pipe(Config.withDefault("Info")), (level) =>
    Layer.mergeAll(Logger.layer([Logger.consoleJson]), Layer.succeed(References.MinimumLogLevel, level))
  )
)

Layer.launch(Server).pipe(Effect.provide(Logging), NodeRuntime.runMain)
