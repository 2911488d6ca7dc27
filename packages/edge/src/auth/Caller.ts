import type { Actor } from "@margin/core/access/Actor"
import type { Role } from "@margin/core/access/Role"
import type { Scope } from "@margin/core/access/Scope"
import type { GrantId, TokenId, UserId, WorkspaceId } from "@margin/core/kernel/Ids"
import type { Door, OperationCaller } from "@margin/core/operations/OperationInput"
import { Context } from "effect"

/** Who is calling, resolved once per request by `Authenticate`. */
export interface CallerShape {
  /** The one workspace this request may reach. */
  readonly workspaceId: WorkspaceId
  readonly credential: "token" | "session" | "grant"
  /** The API token, for token callers. */
  readonly tokenId: TokenId | null
  /** The OAuth grant, for callers with an OAuth access token (MCP only). */
  readonly grantId?: GrantId
  /** The token's issuer, the session's user, or the user who consented to the grant. */
  readonly userId: UserId
  /** The token's scopes; for sessions, what first-party apps may do (`sessionScopes` of the operation catalogue). */
  readonly scopes: ReadonlyArray<Scope>
  /** The user's role in the workspace; null when the token's issuer is no longer a member. */
  readonly role: Role | null
}

export class Caller extends Context.Service<Caller, CallerShape>()("margin/edge/Caller") {}

/**
 * The actor recorded on entities and audit events. An OAuth grant's caller acts as the user who
 * consented (as a session does): the grant is the user's delegation, not a credential of its own.
 */
export const callerActor = (caller: CallerShape): Actor =>
  caller.tokenId === null
    ? { _tag: "SessionActor", userId: caller.userId }
    : { _tag: "TokenActor", tokenId: caller.tokenId, userId: caller.userId }

/** The caller as an operation's use case takes it (`OperationCaller` of the catalogue), at a door. */
export const operationCaller = (caller: CallerShape, door: Door): OperationCaller => ({
  workspaceId: caller.workspaceId,
  userId: caller.userId,
  actor: callerActor(caller),
  role: caller.role,
  door
})
