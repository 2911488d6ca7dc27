import { Context, Effect, Layer, Option } from "effect"
import { type RepositoryError, ResourceNotFound } from "../kernel/Errors.ts"
import type { UserId, WorkspaceId } from "../kernel/Ids.ts"
import type { Workspace } from "../workspaces/Workspace.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { MembershipRepository } from "./MembershipRepository.ts"
import type { Role } from "./Role.ts"

/** A workspace a user belongs to, with their role in it. */
export interface WorkspaceMembership {
  readonly workspace: Workspace
  readonly role: Role
}

/**
 * Which workspaces a signed-in user reaches, for a door that lets a person pick one (the console).
 * A workspace they are not a member of is not found, exactly as one that does not exist.
 */
export class WorkspaceAccess extends Context.Service<
  WorkspaceAccess,
  {
    readonly workspacesOf: (userId: UserId) => Effect.Effect<ReadonlyArray<WorkspaceMembership>, RepositoryError>
    readonly membershipIn: (
      workspaceId: WorkspaceId,
      userId: UserId
    ) => Effect.Effect<WorkspaceMembership, ResourceNotFound | RepositoryError>
  }
>()("margin/core/WorkspaceAccess") {
  static readonly layer = Layer.effect(
    WorkspaceAccess,
    Effect.gen(function* () {
      const memberships = yield* MembershipRepository
      const workspaces = yield* WorkspaceRepository
      const notFound = (workspaceId: WorkspaceId) => new ResourceNotFound({ resource: "workspace", id: workspaceId })
      return WorkspaceAccess.of({
        workspacesOf: (userId) =>
          Effect.flatMap(memberships.listForUser(userId), (all) =>
            Effect.map(
              Effect.forEach(all, (membership) =>
                Effect.map(workspaces.get(membership.workspaceId), (found) =>
                  Option.map(found, (workspace): WorkspaceMembership => ({ workspace, role: membership.role }))
                )
              ),
              (found) => found.flatMap((entry) => (Option.isSome(entry) ? [entry.value] : []))
            )
          ),
        membershipIn: (workspaceId, userId) =>
          Effect.gen(function* () {
            const membership = yield* memberships.get(workspaceId, userId)
            if (Option.isNone(membership)) return yield* notFound(workspaceId)
            const workspace = yield* workspaces.get(workspaceId)
            if (Option.isNone(workspace)) return yield* notFound(workspaceId)
            return { workspace: workspace.value, role: membership.value.role }
          })
      })
    })
  )
}
