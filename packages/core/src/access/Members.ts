import { Clock, Context, Effect, Layer, Option } from "effect"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { type RepositoryError, ResourceNotFound, UserDeleted } from "../kernel/Errors.ts"
import { Transactor } from "../kernel/Transactor.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import type { Membership } from "./Membership.ts"
import { MembershipRepository } from "./MembershipRepository.ts"
import type { Role } from "./Role.ts"
import { UserRepository } from "./UserRepository.ts"

export type SetRoleError = ResourceNotFound | UserDeleted | RepositoryError

/**
 * Who belongs to a workspace, with which role. The operator's command line is its caller today
 * (`marginctl member add`, the demo): the write and its audit event are one transaction, as every
 * audited change of a use case is.
 */
export class Members extends Context.Service<
  Members,
  {
    /**
     * Adds the user to the workspace with `membership.role`, or changes their role; answers the
     * role before (null: they were not a member). The workspace and the user must exist, the user
     * not deleted. Audited as `member.add` or `member.set_role` by `actor` (an actor label).
     */
    readonly setRole: (membership: Membership, actor: string) => Effect.Effect<Role | null, SetRoleError>
  }
>()("margin/core/Members") {
  static readonly layer = Layer.effect(
    Members,
    Effect.gen(function* () {
      const workspaces = yield* WorkspaceRepository
      const users = yield* UserRepository
      const memberships = yield* MembershipRepository
      const transactor = yield* Transactor
      const trail = yield* AuditTrail
      return Members.of({
        setRole: Effect.fn("Members.setRole")(function* (membership: Membership, actor: string) {
          const { workspaceId, userId, role } = membership
          if (Option.isNone(yield* workspaces.get(workspaceId))) {
            return yield* new ResourceNotFound({ resource: "workspace", id: workspaceId })
          }
          const user = yield* users.get(userId)
          if (Option.isNone(user)) return yield* new ResourceNotFound({ resource: "user", id: userId })
          if (user.value.deletedAt !== null) return yield* new UserDeleted({ userId, deletedAt: user.value.deletedAt })
          const now = yield* Clock.currentTimeMillis
          return yield* transactor.transaction(
            Effect.gen(function* () {
              const before = yield* memberships.get(workspaceId, userId)
              const previous = Option.match(before, { onNone: () => null, onSome: (m) => m.role })
              yield* memberships.upsert(membership)
              yield* trail.record({
                workspaceId,
                actor,
                action: previous === null ? "member.add" : "member.set_role",
                resourceType: "membership",
                resourceId: userId,
                beforeStatus: previous,
                afterStatus: role,
                at: now
              })
              return previous
            })
          )
        })
      })
    })
  ).pipe(Layer.provide(AuditTrail.layer))
}
