import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { TokenId, UserId, WorkspaceId } from "../kernel/Ids.ts"
import type { Page, PageRequest } from "../kernel/Page.ts"
import type { ApiToken } from "./ApiToken.ts"

export class TokenRepository extends Context.Service<
  TokenRepository,
  {
    /** `secretHash` is the hex SHA-256 of the whole `pck_…` secret; the secret itself is never stored. */
    readonly findBySecretHash: (secretHash: string) => Effect.Effect<Option.Option<ApiToken>, RepositoryError>
    readonly get: (id: TokenId) => Effect.Effect<Option.Option<ApiToken>, RepositoryError>
    readonly insert: (token: ApiToken, secretHash: string) => Effect.Effect<void, RepositoryError>
    readonly revoke: (id: TokenId, at: number) => Effect.Effect<boolean, RepositoryError>
    readonly touch: (id: TokenId, at: number) => Effect.Effect<void, RepositoryError>
    /** The workspace's tokens, revoked and expired ones too, newest first; only those `issuedBy` issued when given. */
    readonly listForWorkspace: (
      workspaceId: WorkspaceId,
      filter: { readonly issuedBy: UserId | null },
      page: PageRequest
    ) => Effect.Effect<Page<ApiToken>, RepositoryError>
  }
>()("margin/core/TokenRepository") {}
