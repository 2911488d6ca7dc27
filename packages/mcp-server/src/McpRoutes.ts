import { Effect, Layer } from "effect"
import { McpProtocol, McpServer } from "effect/ai"
import { MarginToolkit, MarginToolkitLayer } from "./MarginToolkit.ts"
import { McpAuthentication } from "./McpAuthentication.ts"
import { McpSettings } from "./McpSettings.ts"
import * as ProtectedResource from "./ProtectedResource.ts"
import { ScopeVisibility } from "./ScopeVisibility.ts"

/** The MCP revisions served; clients negotiate the newest they share. */
export const protocols = [McpProtocol.v2025_11_25, McpProtocol.v2025_06_18, McpProtocol.v2025_03_26] as const

export const serverInfo = { name: "margin", version: "1.0.0" } as const

/** Told to the agent at initialize: how the tools fit together. */
export const instructions = [
  "Margin recommends prices per catalog item to reach the workspace's target margin.",
  "Workflow: trigger_run analyses the catalog, get_run tells when it is done, list_recommendations (status new) shows what it found;",
  "accept_recommendation puts one up for approval, approve_recommendation writes the new price to the store (once), reject or dismiss ends it.",
  "Alerts flag margin problems: list_alerts, then snooze, resolve or dismiss.",
  "Money is integer minor units with a currency. Lists answer one page and a next_cursor; errors carry a code (not_found, conflict, forbidden_role...)."
].join(" ")

/** The tools, hidden per request by scope, with their handlers on the use cases. */
export const Registrations = McpServer.toolkit(MarginToolkit).pipe(
  Layer.provide(ScopeVisibility.layer),
  Layer.provide(MarginToolkitLayer)
)

/**
 * The MCP front door as router routes: Streamable HTTP at /mcp behind `McpAuthentication`, and the
 * protected-resource metadata. Mount it on the same `HttpRouter` as the REST API (`npm start`) or
 * alone (apps/mcp). Needs the use cases (`UseCasesLayer` of @margin/edge), `BackgroundRuns`, the
 * ports and `McpSettings`. Sessions live in this process: see docs/mcp.md for more than one replica.
 */
export const layer = Layer.mergeAll(
  Layer.unwrap(
    Effect.map(McpSettings, (settings) =>
      McpServer.layerHttp({
        ...serverInfo,
        path: ProtectedResource.mcpPath,
        protocols,
        allowedOrigins: settings.allowedOrigins,
        allowSessionTermination: true,
        instructions,
        registrations: Registrations
      })
    )
  ).pipe(Layer.provide(McpAuthentication.layer)),
  ProtectedResource.layer
)
