import { Effect } from "effect"
import { ForbiddenRole } from "../kernel/Errors.ts"
import type { UserId } from "../kernel/Ids.ts"
import { mayManage, type Role } from "./Role.ts"

/** The member acting: who they are and their role in the workspace (null: no longer a member). */
export interface ActingMember {
  readonly userId: UserId
  readonly role: Role | null
}

/** The member's role when it may manage the workspace's settings (admin, owner); else ForbiddenRole. */
export const asManager = (member: ActingMember): Effect.Effect<Role, ForbiddenRole> =>
  member.role !== null && mayManage(member.role)
    ? Effect.succeed(member.role)
    : Effect.fail(new ForbiddenRole({ role: member.role }))
