import { Schema } from "effect"
import { Scope } from "../access/Scope.ts"
import { GrantId, OAuthClientId } from "../kernel/Ids.ts"
import { Timestamp } from "../kernel/Timestamp.ts"

/**
 * An authorization code, issued once the user consented, redeemed once at the token endpoint.
 * Stored under the hash of the code; the code itself only travels in the redirect.
 */
export const AuthorizationCode = Schema.Struct({
  grantId: GrantId,
  clientId: OAuthClientId,
  redirectUri: Schema.String,
  /** The S256 PKCE challenge the authorization request carried. */
  codeChallenge: Schema.String,
  scopes: Schema.Array(Scope),
  /** The RFC 8707 resource the tokens will be for. */
  resource: Schema.String,
  createdAt: Timestamp,
  expiresAt: Timestamp,
  /** When it was first redeemed; a second redemption is a replay. */
  usedAt: Schema.NullOr(Timestamp)
})
export type AuthorizationCode = typeof AuthorizationCode.Type

/** Long enough for a redirect and one token request, short enough that a leaked code is soon worthless. */
export const codeLifetimeMs = 60_000

/** What the token request presents with the code (`pkceVerified` is the caller's S256 check of its verifier). */
export interface CodeRedemption {
  readonly clientId: string
  readonly redirectUri: string | undefined
  readonly resource: string | undefined
  readonly pkceVerified: boolean
}

export type CodeRefusal =
  | "replayed"
  | "expired"
  | "client_mismatch"
  | "redirect_mismatch"
  | "resource_mismatch"
  | "pkce_mismatch"

/**
 * Decides a redemption of `code` (as it was before this redemption marked it used). A replay is
 * named first: the caller then revokes the grant, since whoever replays holds a code that was
 * already exchanged (OAuth 2.1 section 4.1.3). `resource` may be omitted at the token endpoint
 * (the code's own applies); when sent it must be the one the code was issued for.
 */
export const decideRedemption = (
  code: AuthorizationCode,
  redemption: CodeRedemption,
  now: number
): CodeRefusal | "redeemable" =>
  code.usedAt !== null
    ? "replayed"
    : code.expiresAt <= now
      ? "expired"
      : code.clientId !== redemption.clientId
        ? "client_mismatch"
        : code.redirectUri !== redemption.redirectUri
          ? "redirect_mismatch"
          : redemption.resource !== undefined && redemption.resource !== code.resource
            ? "resource_mismatch"
            : !redemption.pkceVerified
              ? "pkce_mismatch"
              : "redeemable"

/**
 * Whether a replay of `code` (already redeemed) proves that the code leaked together with its
 * verifier: the replaying request would itself have been redeemable (the code's client, redirect
 * URI and resource, the right PKCE verifier). Only such a replay revokes the grant; one from
 * whoever merely saw the code (a log, a referrer) is refused and ends nothing, or anyone who saw a
 * code could end the grant the real exchange opened.
 */
export const replayIsProven = (code: AuthorizationCode, redemption: CodeRedemption, now: number): boolean =>
  decideRedemption({ ...code, usedAt: null }, redemption, now) === "redeemable"
