import { Schema } from "effect"
import { OAuthClientId } from "../kernel/Ids.ts"
import { Timestamp } from "../kernel/Timestamp.ts"

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

/** Exact string match, as OAuth 2.1 requires: `https://a/cb` does not match `https://a/cb/` or `https://a/cb?x`. */
export const redirectUriAllowed = (client: OAuthClient, redirectUri: string): boolean =>
  client.redirectUris.includes(redirectUri)
