import { Clock, Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { auditedChange } from "../audit/AuditedChange.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { type RepositoryError, ResourceNotFound, UserDeleted } from "../kernel/Errors.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { TokenId, type UserId, type WorkspaceId } from "../kernel/Ids.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import type { ApiToken } from "./ApiToken.ts"
import { MembershipRepository } from "./MembershipRepository.ts"
import type { Scope } from "./Scope.ts"
import { TokenRepository } from "./TokenRepository.ts"
import { TokenSecrets } from "./TokenSecrets.ts"
import { UserRepository } from "./UserRepository.ts"

/** A token is issued on behalf of a member of its workspace only. */
export class NotAMember extends Schema.TaggedError<NotAMember>()("NotAMember", {
  workspaceId: Schema.String,
  userId: Schema.String
}) {}

/** What the operator asks for: the token's workspace, the member it acts for, its scopes, name and lifetime. */
export interface TokenRequest {
  readonly workspaceId: WorkspaceId
  readonly userId: UserId
  readonly scopes: ReadonlyArray<Scope>
  readonly name: string
  /** Null: until revoked. */
  readonly expiresInSeconds: number | null
}

/** An issued token and its `pck_…` secret: shown once, never stored (only its hash is). */
export interface IssuedToken {
  readonly token: ApiToken
  readonly secret: Redacted.Redacted<string>
}

export type IssueError = ResourceNotFound | UserDeleted | NotAMember | RepositoryError

/**
 * API tokens as the platform operator manages them (`marginctl token`): issued on behalf of a
 * member with the scopes asked (a workspace member's own keys, limited by their role, are
 * `ApiKeys`), revoked by id. Each change is audited by `actor` in the transaction of the write.
 */
export class OperatorTokens extends Context.Service<
  OperatorTokens,
  {
    readonly issue: (request: TokenRequest, actor: string) => Effect.Effect<IssuedToken, IssueError>
    /** Revokes the token; one revoked already is answered as it is (`revokedNow` false). */
    readonly revoke: (
      id: TokenId,
      actor: string
    ) => Effect.Effect<
      { readonly token: ApiToken; readonly revokedAt: number; readonly revokedNow: boolean },
      ResourceNotFound | RepositoryError
    >
  }
>()("margin/core/OperatorTokens") {
  static readonly layer = Layer.effect(
    OperatorTokens,
    Effect.gen(function* () {
      const tokens = yield* TokenRepository
      const workspaces = yield* WorkspaceRepository
      const users = yield* UserRepository
      const memberships = yield* MembershipRepository
      const secrets = yield* TokenSecrets
      const ids = yield* IdGenerator
      const audited = yield* auditedChange
      const event = (token: ApiToken, action: string, beforeStatus: string | null, afterStatus: string) => ({
        workspaceId: token.workspaceId,
        action,
        resourceType: "token",
        resourceId: token.id,
        beforeStatus,
        afterStatus
      })
      return OperatorTokens.of({
        issue: Effect.fn("OperatorTokens.issue")(function* (request, actor) {
          const { workspaceId, userId } = request
          if (Option.isNone(yield* workspaces.get(workspaceId))) {
            return yield* new ResourceNotFound({ resource: "workspace", id: workspaceId })
          }
          const user = yield* users.get(userId)
          if (Option.isNone(user)) return yield* new ResourceNotFound({ resource: "user", id: userId })
          if (user.value.deletedAt !== null) return yield* new UserDeleted({ userId, deletedAt: user.value.deletedAt })
          if (Option.isNone(yield* memberships.get(workspaceId, userId))) {
            return yield* new NotAMember({ workspaceId, userId })
          }
          const now = yield* Clock.currentTimeMillis
          const secret = yield* secrets.next
          const token: ApiToken = {
            id: TokenId.make(yield* ids.next("token")),
            workspaceId,
            issuedBy: userId,
            name: request.name,
            scopes: request.scopes,
            createdAt: now,
            expiresAt: request.expiresInSeconds === null ? null : now + request.expiresInSeconds * 1000,
            revokedAt: null,
            lastUsedAt: null
          }
          yield* audited(actor, tokens.insert(token, secret.hash), () => [event(token, "token.create", null, "active")])
          return { token, secret: Redacted.make(secret.secret) }
        }),
        revoke: Effect.fn("OperatorTokens.revoke")(function* (id, actor) {
          const found = yield* tokens.get(id)
          if (Option.isNone(found)) return yield* new ResourceNotFound({ resource: "token", id })
          const revokedAt = found.value.revokedAt
          if (revokedAt !== null) return { token: found.value, revokedAt, revokedNow: false }
          const now = yield* Clock.currentTimeMillis
          yield* audited(actor, tokens.revoke(id, now), () => [event(found.value, "token.revoke", "active", "revoked")])
          return { token: { ...found.value, revokedAt: now }, revokedAt: now, revokedNow: true }
        })
      })
    })
  ).pipe(Layer.provide(AuditTrail.layer))
}
