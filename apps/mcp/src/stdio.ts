import { NodeRuntime, NodeStdio } from "@effect/platform-node"
import * as ProcessExit from "@margin/edge/ProcessExit"
import * as ServerInfrastructure from "@margin/edge/ServerInfrastructure"
import * as ServerProcess from "@margin/edge/ServerProcess"
import { explainStartFailure } from "@margin/edge/StartupFailure"
import * as ServerTracing from "@margin/edge/Tracing"
import * as WorkerBackgroundRuns from "@margin/jobs/WorkerBackgroundRuns"
import * as McpStdio from "@margin/mcp-server/McpStdio"
import { marginToken } from "@margin/mcp-server/StdioAuthentication"
import { Config, Effect, Layer } from "effect"

/**
 * The MCP server over stdin/stdout for a local agent that starts it (Claude Desktop, Claude
 * Code): the API token comes from MARGIN_TOKEN, the database from DATABASE_URL or DATA_DIR like
 * the other processes. stdout carries the protocol, so every log line goes to stderr.
 */
const Server = Layer.unwrap(
  // MARGIN_TOKEN is checked first, so that a missing one stops the process before the database opens.
  Effect.map(Config.all([ServerInfrastructure.optionsConfig, marginToken]), ([infrastructure]) =>
    McpStdio.layer.pipe(
      Layer.provide([WorkerBackgroundRuns.layer, NodeStdio.layer]),
      Layer.provide(ServerProcess.useCasesLayer(infrastructure))
    )
  )
)

/** Spans over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md, Tracing). */
const Tracing = ServerTracing.layer({ serviceName: "margin-mcp-stdio" })

// A start that fails says why in one line on stderr (stdout carries the protocol), then exits 1.
Layer.launch(Server.pipe(Layer.provide(Tracing))).pipe(
  explainStartFailure,
  Effect.provide(ServerProcess.loggingLayerStderr),
  NodeRuntime.runMain({ disableErrorReporting: true, teardown: ProcessExit.teardown })
)
