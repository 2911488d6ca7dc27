import { Effect, Layer } from "effect"
import { McpServer } from "effect/ai"
import { McpAuthentication } from "../auth/McpAuthentication.ts"
import * as ProtectedResource from "../auth/ProtectedResource.ts"
import { McpSettings } from "../McpSettings.ts"
import * as AuthorizationServerMetadata from "../oauth/AuthorizationServerMetadata.ts"
import { oauthPaths } from "../oauth/AuthorizationServerMetadata.ts"
import * as OAuthAuthorizeRoute from "../oauth/OAuthAuthorizeRoute.ts"
import * as OAuthLoginRoute from "../oauth/OAuthLoginRoute.ts"
import * as OAuthRegisterRoute from "../oauth/OAuthRegisterRoute.ts"
import * as OAuthRevokeRoute from "../oauth/OAuthRevokeRoute.ts"
import * as OAuthTokenRoute from "../oauth/OAuthTokenRoute.ts"
import * as OidcLoginRoute from "../oauth/OidcLoginRoute.ts"
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
 * REST API (`npm start`) or alone (apps/mcp); the router's other routes get no CORS. Needs the use cases (the use-case layer of @margin/runtime), `BackgroundRuns`, the
 * ports, `McpSettings` and `OAuthLoginSettings`. Sessions live in this process: see docs/mcp.md for more than one replica.
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
  ).pipe(Layer.provide(McpAuthentication.combine(McpCors).layer), Layer.provide(McpSessions.layer)),
  ProtectedResource.layer.pipe(Layer.provide(McpCors.layer)),
  // The OAuth 2.1 authorization server of /mcp (docs/mcp.md, "Connecting with OAuth").
  AuthorizationServerMetadata.layer,
  OAuthTokenRoute.layer,
  OAuthRevokeRoute.layer,
  OAuthRegisterRoute.layer,
  OAuthAuthorizeRoute.layer,
  OAuthLoginRoute.layer,
  OidcLoginRoute.layer
)

/** The routes `layer` serves, by method and path: for the route table of a router that mounts it. */
export const routes: ReadonlyArray<{ readonly method: string; readonly path: string }> = [
  ...["POST", "GET", "DELETE"].map((method) => ({ method, path: ProtectedResource.mcpPath })),
  { method: "GET", path: `${ProtectedResource.metadataPath}${ProtectedResource.mcpPath}` },
  { method: "GET", path: ProtectedResource.metadataPath },
  { method: "GET", path: oauthPaths.metadata },
  { method: "POST", path: oauthPaths.token },
  { method: "POST", path: oauthPaths.revoke },
  { method: "POST", path: oauthPaths.register },
  { method: "GET", path: oauthPaths.authorize },
  { method: "POST", path: oauthPaths.authorize },
  { method: "GET", path: OAuthLoginRoute.loginPaths.request },
  { method: "POST", path: OAuthLoginRoute.loginPaths.request },
  { method: "GET", path: OAuthLoginRoute.loginPaths.link },
  { method: "POST", path: OAuthLoginRoute.loginPaths.link },
  { method: "GET", path: OidcLoginRoute.oidcPaths.start },
  { method: "GET", path: OidcLoginRoute.oidcPaths.callback }
]
