import { TokenId, UserId, WorkspaceId } from "@margin/core/Ids"
import { Role } from "@margin/core/Role"
import { Scope } from "@margin/core/Scope"
import { instantOrNull, isInstant, isInstantOrNull, isRecord, literalOf, stringOf } from "./PgFastChecks.ts"
import type { MembershipRow } from "./PgMembershipRepository.ts"
import type { TokenRow } from "./PgTokenRepository.ts"
import type { UserRow } from "./PgUserRepository.ts"

/*
 * The rows every authenticated request reads (the token by its secret's hash, the caller's
 * membership, for a mutation the token's issuer), decoded by their schemas' checks written out
 * (PgRows.FastRow): through the schemas they were about a tenth of our own work per accept beyond
 * the framework floor (docs/performance-log.md). PgCallerRows.test.ts holds each to its schema.
 */

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
