import { Schema } from "effect"
import { Scope } from "../access/Scope.ts"
import { GrantId, OAuthClientId, UserId, WorkspaceId } from "../kernel/Ids.ts"
import { Timestamp } from "../kernel/Timestamp.ts"

/**
 * A user's consent that one OAuth client may act in one of their workspaces with some scopes.
 * At most one live grant per (user, client, workspace): consenting again updates it. Each grant
 * is a rate budget subject of its own (`grant:<id>`), apart from the user's API tokens.
 */
export const OAuthGrant = Schema.Struct({
  id: GrantId,
  userId: UserId,
  clientId: OAuthClientId,
  workspaceId: WorkspaceId,
  scopes: Schema.Array(Scope),
  /** The RFC 8707 resource (the MCP endpoint's URL) its access tokens are for. */
  resource: Schema.String,
  createdAt: Timestamp,
  revokedAt: Schema.NullOr(Timestamp),
  /** When one of its access tokens last reached the resource (to the minute); null: never yet. */
  lastUsedAt: Schema.NullOr(Timestamp)
})
export type OAuthGrant = typeof OAuthGrant.Type

/** A grant's last use is recorded at most once a minute: each MCP call need not write. */
export const grantTouchIntervalMs = 60_000

export const grantLive = (grant: OAuthGrant, now: number): boolean => grant.revokedAt === null || grant.revokedAt > now

/**
 * Live grants one user may hold, over every client and workspace. Registration is open, and each
 * grant is a rate budget of its own: without a bound, registering clients and consenting to each
 * would multiply one person's budget. A consent beyond it ends that user's oldest live grants
 * (clients that re-register at each start leave such grants behind).
 */
export const maxLiveGrantsPerUser = 10
