import { Schema } from "effect"
import { TokenId, UserId, WorkspaceId } from "../kernel/Ids.ts"
import { Timestamp } from "../kernel/Timestamp.ts"
import { Scope } from "./Scope.ts"

/** A `pck_` API token. Only the SHA-256 hash of its secret is ever stored. */
export const ApiToken = Schema.Struct({
  id: TokenId,
  workspaceId: WorkspaceId,
  issuedBy: UserId,
  name: Schema.String,
  scopes: Schema.Array(Scope),
  createdAt: Timestamp,
  expiresAt: Schema.NullOr(Timestamp),
  revokedAt: Schema.NullOr(Timestamp),
  lastUsedAt: Schema.NullOr(Timestamp)
})
export type ApiToken = typeof ApiToken.Type

export const tokenPrefix = "pck_"

/** Why a presented token cannot authenticate; all of them answer 401 alike. */
export type TokenState = "usable" | "revoked" | "expired"

export const tokenState = (token: ApiToken, now: number): TokenState =>
  token.revokedAt !== null && token.revokedAt <= now
    ? "revoked"
    : token.expiresAt !== null && token.expiresAt <= now
      ? "expired"
      : "usable"
