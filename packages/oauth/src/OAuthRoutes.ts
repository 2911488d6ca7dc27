import { Layer } from "effect"
import * as AuthorizationServerMetadata from "./routes/AuthorizationServerMetadata.ts"
import { oauthPaths } from "./routes/AuthorizationServerMetadata.ts"
import * as OAuthAuthorizeRoute from "./routes/OAuthAuthorizeRoute.ts"
import * as OAuthLoginRoute from "./routes/OAuthLoginRoute.ts"
import * as OAuthRegisterRoute from "./routes/OAuthRegisterRoute.ts"
import * as OAuthRevokeRoute from "./routes/OAuthRevokeRoute.ts"
import * as OAuthTokenRoute from "./routes/OAuthTokenRoute.ts"
import * as OidcLoginRoute from "./routes/OidcLoginRoute.ts"

/**
 * The OAuth 2.1 authorization server of /mcp (docs/mcp.md, "Connecting with OAuth") as router
 * routes: its RFC 8414 metadata, token, revocation and registration endpoints, the authorization
 * endpoint with its consent page, and the sign-in pages (e-mail link, OpenID Connect). Mounted
 * beside the MCP front door on the same origin (the issuer is the resource's origin). Needs the use
 * cases, `PublicOrigin` and `OAuthLoginSettings` (and a `Mailer` for the sign-in links, if any).
 */
export const layer = Layer.mergeAll(
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
