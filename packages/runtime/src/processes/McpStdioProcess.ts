import { NodeStdio } from "@effect/platform-node"
import { WorkerBackgroundRuns } from "@margin/jobs"
import { McpStdio, marginToken } from "@margin/mcp-server"
import { Config, Effect, Layer } from "effect"
import { infrastructureConfig } from "../config/InfrastructureConfig.ts"
import * as ServerProcess from "../infrastructure/ServerProcess.ts"
import type { ProcessDefinition } from "../lifecycle/Launch.ts"
import * as Logging from "../lifecycle/Logging.ts"

/**
 * The MCP server over stdin/stdout for a local agent that starts it (Claude Desktop, Claude
 * Code): the API token comes from MARGIN_TOKEN, the database from DATABASE_URL or DATA_DIR like
 * the other processes. stdout carries the protocol, so every log line goes to stderr.
 */
const server = Layer.unwrap(
  // MARGIN_TOKEN is checked first, so that a missing one stops the process before the database opens.
  Effect.map(Config.all([infrastructureConfig, marginToken]), ([infrastructure]) =>
    McpStdio.layer.pipe(
      Layer.provide([WorkerBackgroundRuns.layer, NodeStdio.layer]),
      Layer.provide(ServerProcess.useCasesLayer(infrastructure))
    )
  )
)

/** `npm run mcp:stdio` (apps/mcp); a start that fails says why on stderr. */
export const definition = {
  layer: server,
  serviceName: "margin-mcp-stdio",
  logging: Logging.stderr,
  serves: false
} satisfies ProcessDefinition<unknown>
