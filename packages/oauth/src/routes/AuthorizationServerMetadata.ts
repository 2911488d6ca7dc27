import { scopes } from "@margin/core/access/Scope"
import { tokenEndpointAuthMethods } from "@margin/core/oauth/OAuthClient"
import { metadataResponse, PublicOrigin } from "@margin/edge/serving"
import { Effect } from "effect"
import { HttpRouter } from "effect/http"

/** The authorization server's endpoints, on the same origin as /mcp (the issuer is that origin). */
export const oauthPaths = {
  metadata: "/.well-known/oauth-authorization-server",
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
  revoke: "/oauth/revoke"
} as const

/** RFC 8414 metadata of the authorization server whose issuer is `origin`. */
export const authorizationServerMetadataOf = (origin: string) => ({
  issuer: origin,
  authorization_endpoint: `${origin}${oauthPaths.authorize}`,
  token_endpoint: `${origin}${oauthPaths.token}`,
  registration_endpoint: `${origin}${oauthPaths.register}`,
  revocation_endpoint: `${origin}${oauthPaths.revoke}`,
  response_types_supported: ["code"],
  response_modes_supported: ["query"],
  grant_types_supported: ["authorization_code", "refresh_token"],
  code_challenge_methods_supported: ["S256"],
  token_endpoint_auth_methods_supported: tokenEndpointAuthMethods,
  revocation_endpoint_auth_methods_supported: tokenEndpointAuthMethods,
  scopes_supported: scopes,
  // A client may use the https URL of its metadata document as its client_id (no registration).
  client_id_metadata_document_supported: true,
  // The authorization response carries `iss` (RFC 9207): clients can tell which server answered.
  authorization_response_iss_parameter_supported: true,
  service_documentation: `${origin}/api/v1/openapi.json`
})

/** Served without authentication, cacheable like the protected-resource metadata. */
export const layer = HttpRouter.addAll(
  Effect.map(PublicOrigin, (settings) => [
    HttpRouter.route("GET", oauthPaths.metadata, metadataResponse(settings, authorizationServerMetadataOf))
  ])
)
