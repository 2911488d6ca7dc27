import { Role } from "@margin/core/access/Role"
import { Scope } from "@margin/core/access/Scope"
import { TokenId, UserId, WorkspaceId } from "@margin/core/kernel/Ids"
import { Schema } from "effect"
import { Instant, NullableInstant } from "./PgColumns.ts"
import { instantOrNull, isInstant, isInstantOrNull, isRecord, literalOf, stringOf } from "./PgFastChecks.ts"

/*
 * The rows every authenticated request reads (the token by its secret's hash, the caller's
 * membership, for a mutation the token's issuer): their schemas, which their repositories decode
 * with, and the same checks written out (PgRows.FastRow): through the schemas they were about a
 * tenth of our own work per accept beyond the framework floor (docs/history/performance-log.md).
 * PgCallerRows.test.ts holds each to its schema.
 */

export const MembershipRow = Schema.Struct({
  workspace_id: WorkspaceId,
  user_id: UserId,
  role: Role
})
export type MembershipRow = typeof MembershipRow.Type

/** A row of `api_tokens` as read: everything but the secret's hash, which only lookups use. */
export const TokenRow = Schema.Struct({
  id: TokenId,
  workspace_id: WorkspaceId,
  issued_by: UserId,
  name: Schema.String,
  scopes: Schema.Array(Scope),
  created_at: Instant,
  expires_at: NullableInstant,
  revoked_at: NullableInstant,
  last_used_at: NullableInstant
})
export type TokenRow = typeof TokenRow.Type

/** A row of `users`, the one table without a workspace. */
export const UserRow = Schema.Struct({
  id: UserId,
  email: Schema.String,
  email_confirmed: Schema.Boolean,
  deleted_at: NullableInstant,
  created_at: Instant
})
export type UserRow = typeof UserRow.Type

const isTokenId = stringOf(TokenId)
const isUserId = stringOf(UserId)
const isWorkspaceId = stringOf(WorkspaceId)
const isRole = literalOf(Role)
const isScope = literalOf(Scope)

const isScopes = (value: unknown): value is ReadonlyArray<Scope> => Array.isArray(value) && value.every(isScope)

export const fastTokenRow = (row: unknown): TokenRow | undefined => {
  if (!isRecord(row)) return undefined
  const { id, workspace_id, issued_by, name, scopes, created_at, expires_at, revoked_at, last_used_at } = row
  if (
    !isTokenId(id) ||
    !isWorkspaceId(workspace_id) ||
    !isUserId(issued_by) ||
    typeof name !== "string" ||
    !isScopes(scopes) ||
    !isInstant(created_at) ||
    !isInstantOrNull(expires_at) ||
    !isInstantOrNull(revoked_at) ||
    !isInstantOrNull(last_used_at)
  ) {
    return undefined
  }
  return {
    id,
    workspace_id,
    issued_by,
    name,
    scopes: [...scopes],
    created_at: created_at.getTime(),
    expires_at: instantOrNull(expires_at),
    revoked_at: instantOrNull(revoked_at),
    last_used_at: instantOrNull(last_used_at)
  }
}

export const fastMembershipRow = (row: unknown): MembershipRow | undefined => {
  if (!isRecord(row)) return undefined
  const { workspace_id, user_id, role } = row
  if (!isWorkspaceId(workspace_id) || !isUserId(user_id) || !isRole(role)) return undefined
  return { workspace_id, user_id, role }
}

export const fastUserRow = (row: unknown): UserRow | undefined => {
  if (!isRecord(row)) return undefined
  const { id, email, email_confirmed, deleted_at, created_at } = row
  if (
    !isUserId(id) ||
    typeof email !== "string" ||
    typeof email_confirmed !== "boolean" ||
    !isInstantOrNull(deleted_at) ||
    !isInstant(created_at)
  ) {
    return undefined
  }
  return { id, email, email_confirmed, deleted_at: instantOrNull(deleted_at), created_at: created_at.getTime() }
}
