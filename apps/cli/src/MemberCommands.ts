import type { Membership } from "@margin/core/Membership"
import { MembershipRepository } from "@margin/core/ports/MembershipRepository"
import { type Role, roles } from "@margin/core/Role"
import { onDatabase } from "@margin/runtime/cli"
import { Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { userFlag, workspaceFlag } from "./Flags.ts"
import { audited } from "./OperatorAudit.ts"
import { report } from "./Output.ts"
import { requireUser } from "./UserCommands.ts"
import { requireWorkspace } from "./WorkspaceCommands.ts"

/** Adds the user to the workspace with `role`, or changes their role; audited. */
export const addMember = Effect.fn("addMember")(function* (membership: Membership) {
  yield* requireWorkspace(membership.workspaceId)
  yield* requireUser(membership.userId)
  const repository = yield* MembershipRepository
  const before = yield* repository.get(membership.workspaceId, membership.userId)
  const previous: Role | null = Option.match(before, { onNone: () => null, onSome: (m) => m.role })
  yield* audited(repository.upsert(membership), () => [
    {
      workspaceId: membership.workspaceId,
      action: previous === null ? "member.add" : "member.set_role",
      resourceType: "membership",
      resourceId: membership.userId,
      beforeStatus: previous,
      afterStatus: membership.role
    }
  ])
  return previous
})

const add = Command.make(
  "add",
  { workspace: workspaceFlag, user: userFlag, role: Flag.Literals("role", roles) },
  Effect.fn(function* ({ workspace, user, role }) {
    const previous = yield* addMember({ workspaceId: workspace, userId: user, role })
    yield* report({ workspace_id: workspace, user_id: user, role, previous_role: previous }, (r) =>
      r.previous_role === null
        ? `Added ${r.user_id} to ${r.workspace_id} as ${r.role}`
        : `Changed ${r.user_id}'s role in ${r.workspace_id}: ${r.previous_role} -> ${r.role}`
    )
  })
).pipe(
  Command.withDescription("Add a user to a workspace with a role, or change their role"),
  Command.withExamples([
    {
      command: "marginctl member add --workspace ws_01jh8x --user usr_01jh8y --role approver --json",
      description: "Add, or change the role of, a member"
    }
  ])
)

export const memberCommand = Command.make("member").pipe(
  Command.withDescription("Workspace memberships"),
  Command.withExamples([{ command: "marginctl member add --workspace ws_01jh8x --user usr_01jh8y --role approver" }]),
  Command.withSubcommands([onDatabase(add)])
)
