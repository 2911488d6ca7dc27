import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { UserId, WorkspaceId } from "../kernel/Ids.ts"
import type { Membership } from "./Membership.ts"

export class MembershipRepository extends Context.Service<
  MembershipRepository,
  {
    readonly get: (
      workspaceId: WorkspaceId,
      userId: UserId
    ) => Effect.Effect<Option.Option<Membership>, RepositoryError>
    /** Every workspace the user belongs to: session callers in several must name one. */
    readonly listForUser: (userId: UserId) => Effect.Effect<ReadonlyArray<Membership>, RepositoryError>
    /** Adds the member or changes their role. */
    readonly upsert: (membership: Membership) => Effect.Effect<void, RepositoryError>
    /** Ends the membership; true only when there was one. */
    readonly remove: (workspaceId: WorkspaceId, userId: UserId) => Effect.Effect<boolean, RepositoryError>
    /** Owners and admins of a workspace (deprecation notices go to them). */
    readonly listForWorkspace: (workspaceId: WorkspaceId) => Effect.Effect<ReadonlyArray<Membership>, RepositoryError>
    /**
     * Every member of a workspace, whatever the role, by user id: at most `limit`, those after
     * `afterUserId` (the last of the previous page) when it is given.
     */
    readonly listMembers: (
      workspaceId: WorkspaceId,
      page: { readonly afterUserId: UserId | null; readonly limit: number }
    ) => Effect.Effect<ReadonlyArray<Membership>, RepositoryError>
  }
>()("margin/core/MembershipRepository") {}
