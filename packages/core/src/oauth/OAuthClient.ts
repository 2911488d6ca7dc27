import { Schema } from "effect"
import { OAuthClientId } from "../kernel/Ids.ts"
import { Timestamp } from "../kernel/Timestamp.ts"
import { isLoopbackRedirect } from "./OAuthRedirectUri.ts"

/**
 * How a client proves itself at the token endpoint. MCP agents are public clients (`none`): PKCE is
 * their proof. A registered client may also hold a secret, stored only as its hash.
 */
export const tokenEndpointAuthMethods = ["none", "client_secret_basic", "client_secret_post"] as const
export const TokenEndpointAuthMethod = Schema.Literals(tokenEndpointAuthMethods)
export type TokenEndpointAuthMethod = typeof TokenEndpointAuthMethod.Type

/** An OAuth client known to the authorization server: registered (RFC 7591) or described by a metadata document. */
export const OAuthClient = Schema.Struct({
  id: OAuthClientId,
  name: Schema.String,
  /** Compared as exact strings (OAuth 2.1): no prefix, no pattern, no normalisation. */
  redirectUris: Schema.Array(Schema.String),
  /** The client ID metadata document the client was read from (its id is that URL); null when registered. */
  metadataUrl: Schema.NullOr(Schema.String),
  tokenEndpointAuthMethod: TokenEndpointAuthMethod,
  createdAt: Timestamp
})
export type OAuthClient = typeof OAuthClient.Type

/**
 * Exact string match, as OAuth 2.1 requires: `https://a/cb` does not match `https://a/cb/` or
 * `https://a/cb?x`. One exception, RFC 8252 section 7.3: a loopback redirect (`http` to
 * `127.0.0.1`, `[::1]` or `localhost`) matches at any port, since a native client listens on
 * whatever port is free when it asks; the host name, path and query must still be the
 * registered ones (`localhost` does not match `127.0.0.1`).
 */
export const redirectUriAllowed = (client: OAuthClient, redirectUri: string): boolean =>
  client.redirectUris.includes(redirectUri) ||
  (URL.canParse(redirectUri) &&
    isLoopbackRedirect(new URL(redirectUri)) &&
    client.redirectUris.some((registered) => sameButPort(registered, redirectUri)))

const sameButPort = (registered: string, requested: string): boolean => {
  if (!URL.canParse(registered)) return false
  const left = new URL(registered)
  const right = new URL(requested)
  left.port = ""
  right.port = ""
  return isLoopbackRedirect(left) && left.href === right.href && !requested.includes("#")
}
