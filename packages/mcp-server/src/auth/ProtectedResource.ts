import { scopes } from "@margin/core/access/Scope"
import { mcpPath, metadataResponse } from "@margin/edge/serving"
import { Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { McpSettings } from "../McpSettings.ts"

/** RFC 9728 section 3: the metadata of a resource at `/mcp` lives at the well-known prefix plus its path. */
export const metadataPath = "/.well-known/oauth-protected-resource"

/** The URL the 401's WWW-Authenticate header names (RFC 9728 section 5.1). */
export const metadataUrl = (origin: string): string => `${origin}${metadataPath}${mcpPath}`

/**
 * The protected-resource metadata of the MCP endpoint (RFC 9728). Two credentials work: a
 * workspace API token (`pck_...`), or an OAuth access token from the authorization server on this
 * same origin (`authorization_servers`, its RFC 8414 metadata at /.well-known/oauth-authorization-server).
 */
export const metadataOf = (origin: string) => ({
  resource: `${origin}${mcpPath}`,
  resource_name: "Margin MCP server",
  authorization_servers: [origin],
  bearer_methods_supported: ["header"],
  scopes_supported: scopes,
  resource_documentation: `${origin}/api/v1/openapi.json`
})

// OPTIONS is routed only so that the CORS middleware in front (McpCors) sees a browser's preflight;
// any other OPTIONS gets what an unrouted method gets (the REST guard turns it into its 405).
const notRouted = Effect.succeed(HttpServerResponse.empty({ status: 404 }))

/**
 * Served without authentication, at the RFC's path for `/mcp` and at the bare well-known path.
 * Cacheable, and its CORS headers depend on the Origin: `Vary: Origin` keeps a shared cache from
 * giving one origin's answer to another (or an Origin-less answer to a browser).
 */
export const layer = HttpRouter.addAll(
  Effect.map(McpSettings, (settings) => {
    const serve = metadataResponse(settings, metadataOf)
    const paths: ReadonlyArray<HttpRouter.PathInput> = [`${metadataPath}${mcpPath}`, metadataPath]
    return paths.flatMap((path) => [HttpRouter.route("GET", path, serve), HttpRouter.route("OPTIONS", path, notRouted)])
  })
)
