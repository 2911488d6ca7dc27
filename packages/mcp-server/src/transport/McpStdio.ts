import { Layer } from "effect"
import { McpServer } from "effect/ai"
import { StdioAuthentication } from "../auth/StdioAuthentication.ts"
import { MarginToolkit, MarginToolkitLayer } from "../tools/MarginToolkit.ts"
import { ScopeVisibility } from "../tools/ScopeVisibility.ts"
import { instructions, protocols, serverInfo } from "../tools/ServerInfo.ts"

/**
 * The margin MCP server over stdin/stdout, for a local agent that starts it as a subprocess
 * (Claude Desktop, Claude Code): the same tools, scopes and budget as over HTTP, for the token of
 * MARGIN_TOKEN. Needs `Stdio`, the use cases, `BackgroundRuns` and the ports; logs must go to
 * stderr (stdout carries the protocol).
 */
export const layer = McpServer.layerStdio({
  ...serverInfo,
  protocols,
  instructions,
  registrations: McpServer.toolkit(MarginToolkit).pipe(
    Layer.provide(ScopeVisibility.combine(StdioAuthentication).layer),
    Layer.provide(MarginToolkitLayer)
  )
})
