import { mcpPath } from "@margin/edge/serving"
import { Effect, Layer } from "effect"
import { McpServer } from "effect/ai"
import { McpAuthentication } from "../auth/McpAuthentication.ts"
import * as ProtectedResource from "../auth/ProtectedResource.ts"
import { McpSettings } from "../McpSettings.ts"
import { MarginToolkit, MarginToolkitLayer } from "../tools/MarginToolkit.ts"
import { ScopeVisibility } from "../tools/ScopeVisibility.ts"
import { instructions, protocols, serverInfo } from "../tools/ServerInfo.ts"
import { McpCors } from "./McpCors.ts"
import { McpSessions } from "./McpSessions.ts"

/** The tools, hidden per request by scope, with their handlers on the use cases. */
export const Registrations = McpServer.toolkit(MarginToolkit).pipe(
  Layer.provide(ScopeVisibility.layer),
  Layer.provide(MarginToolkitLayer)
)

/**
 * The MCP front door as router routes: Streamable HTTP at /mcp behind `McpAuthentication`, and the
 * protected-resource metadata, both with CORS for MCP_ALLOWED_ORIGINS (`McpCors`, outside the
 * authentication, so that a preflight needs no token). Mount it on the same `HttpRouter` as the
 * REST API (`npm start`) or alone (apps/mcp), beside the OAuth authorization server that issues its
 * tokens (@margin/oauth's `OAuthRoutes`); the router's other routes get no CORS. Needs the use cases
 * (the use-case layer of @margin/runtime), `BackgroundRuns`, the ports and `McpSettings`. Sessions live in this process: see docs/mcp.md for more than one replica.
 */
export const layer = Layer.mergeAll(
  Layer.unwrap(
    Effect.map(McpSettings, (settings) =>
      McpServer.layerHttp({
        ...serverInfo,
        path: mcpPath,
        protocols,
        allowedOrigins: settings.allowedOrigins,
        allowSessionTermination: true,
        instructions,
        registrations: Registrations
      })
    )
  ).pipe(Layer.provide(McpAuthentication.combine(McpCors).layer), Layer.provide(McpSessions.layer)),
  ProtectedResource.layer.pipe(Layer.provide(McpCors.layer))
)

/** The routes `layer` serves, by method and path: for the route table of a router that mounts it. */
export const routes: ReadonlyArray<{ readonly method: string; readonly path: string }> = [
  ...["POST", "GET", "DELETE"].map((method) => ({ method, path: mcpPath })),
  { method: "GET", path: `${ProtectedResource.metadataPath}${mcpPath}` },
  { method: "GET", path: ProtectedResource.metadataPath }
]
