import { scopes } from "@margin/core/access/Scope"
import { Effect } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { McpSettings, type McpSettingsShape } from "../McpSettings.ts"

/** Where the MCP endpoint is served. */
export const mcpPath = "/mcp"

/** RFC 9728 section 3: the metadata of a resource at `/mcp` lives at the well-known prefix plus its path. */
export const metadataPath = "/.well-known/oauth-protected-resource"

/** A Host a client on this machine sends to a loopback server: a loopback name, maybe a port, nothing else. */
const loopbackHost = /^(?:localhost|127\.0\.0\.1|\[::1\])(?::[0-9]{1,5})?$/

/**
 * The origin every absolute URL the service builds starts with (the sign-in mail's link, the
 * metadata, the issuer, challenges, redirects): MCP_PUBLIC_URL's, whatever Host the request names;
 * without it, only a loopback Host (`localhost`, `127.0.0.1`, `[::1]`, with a port), over http, as
 * `npm start` is reached on this machine. Any other Host is not trusted (undefined): a request
 * cannot make the service write an origin of its choosing into a link or a header.
 * `X-Forwarded-*` headers are never read: behind a proxy, MCP_PUBLIC_URL says where clients are.
 */
export const originOf = (
  settings: McpSettingsShape,
  request: HttpServerRequest.HttpServerRequest
): string | undefined => {
  if (settings.publicUrl !== null) return settings.publicUrl
  const host = request.headers.host?.toLowerCase()
  return host !== undefined && loopbackHost.test(host) ? `http://${host}` : undefined
}

/** Why a request whose Host is not trusted gets no URL of this server (`originOf` undefined). */
export const untrustedHost =
  "This server names itself only by MCP_PUBLIC_URL, which is not set, or by a loopback Host " +
  "(localhost, 127.0.0.1, [::1]); the request's Host is neither: set MCP_PUBLIC_URL to the origin clients use."

/**
 * A metadata document (`documentOf` the trusted origin), cacheable for an hour; `Vary: Origin`
 * because CORS headers depend on it. A request whose Host is not trusted gets a 400 naming
 * MCP_PUBLIC_URL, never a document naming its Host.
 */
export const metadataResponse =
  (settings: McpSettingsShape, documentOf: (origin: string) => object) =>
  (request: HttpServerRequest.HttpServerRequest) => {
    const origin = originOf(settings, request)
    return Effect.succeed(
      origin === undefined
        ? HttpServerResponse.jsonUnsafe(
            { code: "bad_request", message: untrustedHost },
            { status: 400, headers: { "cache-control": "no-store", "x-content-type-options": "nosniff" } }
          )
        : HttpServerResponse.jsonUnsafe(documentOf(origin), {
            headers: { "cache-control": "public, max-age=3600", vary: "Origin", "x-content-type-options": "nosniff" }
          })
    )
  }

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
