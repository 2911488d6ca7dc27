import { Schema } from "effect"

/**
 * The error codes of OAuth 2.1 (section 3.2.4 and 4.1.2.1), RFC 7591 and RFC 8707 that the
 * authorization server answers. Each front door maps them to its status (400, 401 for a client).
 */
export const oauthErrorCodes = [
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "invalid_scope",
  "invalid_target",
  "access_denied",
  "invalid_redirect_uri",
  "invalid_client_metadata"
] as const
export const OAuthErrorCode = Schema.Literals(oauthErrorCodes)
export type OAuthErrorCode = typeof OAuthErrorCode.Type

/** A request the authorization server refuses, with the OAuth error code and a description for the client. */
export class OAuthRefused extends Schema.TaggedError<OAuthRefused>()("OAuthRefused", {
  error: OAuthErrorCode,
  description: Schema.String
}) {}
