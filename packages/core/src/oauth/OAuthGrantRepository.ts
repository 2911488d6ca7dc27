import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { GrantId, UserId, WorkspaceId } from "../kernel/Ids.ts"
import type { OAuthGrant } from "./OAuthGrant.ts"
import type { OAuthToken } from "./OAuthToken.ts"

/** Grants and the tokens issued under them (tokens by the hex SHA-256 of their secret). */
export class OAuthGrantRepository extends Context.Service<
  OAuthGrantRepository,
  {
    /**
     * Records a consent: the live grant of (user, client, workspace) takes `fresh`'s scopes and
     * resource, or, when there is none, `fresh` is inserted. Answers the grant as stored.
     */
    readonly consent: (fresh: OAuthGrant) => Effect.Effect<OAuthGrant, RepositoryError>
    readonly get: (id: GrantId) => Effect.Effect<Option.Option<OAuthGrant>, RepositoryError>
    /** Every grant (of one user, of one workspace, when given), live or revoked, newest first. */
    readonly list: (filter: {
      readonly userId?: UserId
      readonly workspaceId?: WorkspaceId
    }) => Effect.Effect<ReadonlyArray<OAuthGrant>, RepositoryError>
    /** True only for the call that revoked it: a second revoke keeps the first instant. */
    readonly revoke: (id: GrantId, at: number) => Effect.Effect<boolean, RepositoryError>
    /** Records a use of the grant at `at` (its `lastUsedAt`; never moved back). */
    readonly touch: (id: GrantId, at: number) => Effect.Effect<void, RepositoryError>
    readonly insertToken: (tokenHash: string, token: OAuthToken) => Effect.Effect<void, RepositoryError>
    readonly findToken: (tokenHash: string) => Effect.Effect<Option.Option<OAuthToken>, RepositoryError>
    /**
     * Marks a token used at `at` and answers it as it was before, atomically: of two concurrent
     * uses of one refresh token exactly one sees `usedAt: null`. A second call keeps the first instant.
     */
    readonly useToken: (tokenHash: string, at: number) => Effect.Effect<Option.Option<OAuthToken>, RepositoryError>
    /** True only for the call that revoked it. */
    readonly revokeToken: (tokenHash: string, at: number) => Effect.Effect<boolean, RepositoryError>
    /**
     * Deletes the tokens that can no longer be used at `now`: expired, revoked, or of a revoked
     * grant. A live token, a used refresh token still current (its reuse must be recognised) and
     * grants are kept. Answers how many went.
     */
    readonly deleteDeadTokens: (now: number) => Effect.Effect<number, RepositoryError>
  }
>()("margin/core/OAuthGrantRepository") {}
