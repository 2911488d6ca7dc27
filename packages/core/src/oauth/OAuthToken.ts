import { Schema } from "effect"
import { GrantId } from "../kernel/Ids.ts"
import { Timestamp } from "../kernel/Timestamp.ts"
import { grantLive, type OAuthGrant } from "./OAuthGrant.ts"

/**
 * An access or refresh token of a grant. Stored under the hash of its secret only. Its scopes and
 * resource are the grant's: narrowing a token below its grant is not offered.
 */
export const OAuthTokenKind = Schema.Literals(["access", "refresh"])
export type OAuthTokenKind = typeof OAuthTokenKind.Type

export const OAuthToken = Schema.Struct({
  grantId: GrantId,
  kind: OAuthTokenKind,
  createdAt: Timestamp,
  expiresAt: Timestamp,
  /** A refresh token's rotation: when it was exchanged for new tokens. A second use is a reuse. */
  usedAt: Schema.NullOr(Timestamp),
  revokedAt: Schema.NullOr(Timestamp)
})
export type OAuthToken = typeof OAuthToken.Type

/** Short-lived: an access token cannot be recalled from a client, only left to expire or refused by its grant. */
export const accessTokenLifetimeMs = 10 * 60_000
export const refreshTokenLifetimeMs = 30 * 24 * 60 * 60_000

export type OAuthTokenState = "usable" | "revoked" | "expired" | "grant_revoked"

/** Whether an access token authenticates now: its own state, then its grant's. */
export const accessTokenState = (token: OAuthToken, grant: OAuthGrant, now: number): OAuthTokenState =>
  !grantLive(grant, now)
    ? "grant_revoked"
    : token.revokedAt !== null && token.revokedAt <= now
      ? "revoked"
      : token.expiresAt <= now
        ? "expired"
        : "usable"

export type RefreshDecision = "rotate" | "reused" | "expired" | "revoked"

/**
 * A refresh token is exchanged once for a new pair (rotation, OAuth 2.1 section 4.3.1). `token` is
 * as it was before this use marked it: already used means a second party holds it, and the caller
 * revokes the whole grant (reuse detection), which also ends the legitimate client's tokens.
 */
export const decideRefresh = (token: OAuthToken, grant: OAuthGrant, now: number): RefreshDecision =>
  token.kind !== "refresh" || !grantLive(grant, now) || (token.revokedAt !== null && token.revokedAt <= now)
    ? "revoked"
    : token.usedAt !== null
      ? "reused"
      : token.expiresAt <= now
        ? "expired"
        : "rotate"
