import { NodeRuntime, NodeStdio } from "@effect/platform-node"
import { BackgroundRuns } from "@margin/edge/BackgroundRuns"
import * as ProcessExit from "@margin/edge/ProcessExit"
import * as ServerInfrastructure from "@margin/edge/ServerInfrastructure"
import * as ServerProcess from "@margin/edge/ServerProcess"
import * as ServerTracing from "@margin/edge/Tracing"
import * as McpStdio from "@margin/mcp-server/McpStdio"
import { Effect, Layer } from "effect"

/**
 * The MCP server over stdin/stdout for a local agent that starts it (Claude Desktop, Claude
 * Code): the API token comes from MARGIN_TOKEN, the database from DATABASE_URL or DATA_DIR like
 * the other processes. stdout carries the protocol, so every log line goes to stderr.
 */
const Server = Layer.unwrap(
  Effect.map(ServerInfrastructure.optionsConfig, (infrastructure) =>
    McpStdio.layer.pipe(
      Layer.provide([BackgroundRuns.layer, NodeStdio.layer]),
      Layer.provide(ServerProcess.useCasesLayer(infrastructure))
    )
  )
)

/** Spans over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md, Tracing). */
const Tracing = ServerTracing.layer({ serviceName: "margin-mcp-stdio" })

Layer.launch(Server.pipe(Layer.provide(Tracing))).pipe(
  Effect.provide(ServerProcess.loggingLayerStderr),
  NodeRuntime.runMain({ teardown: ProcessExit.teardown })
)
