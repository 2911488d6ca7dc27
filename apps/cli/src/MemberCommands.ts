import { Members } from "@margin/core/access/Members"
import type { Membership } from "@margin/core/access/Membership"
import { MembershipRepository } from "@margin/core/access/MembershipRepository"
import { roles } from "@margin/core/access/Role"
import { UserRepository } from "@margin/core/access/UserRepository"
import { UserId } from "@margin/core/kernel/Ids"
import { toIso } from "@margin/core/kernel/Timestamp"
import { onDatabase } from "@margin/runtime/cli"
import { Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { details } from "./Details.ts"
import { userFlag, workspaceFlag } from "./Flags.ts"
import { afterFlag, limitFlag, reportListing } from "./Listing.ts"
import { operatorActor } from "./OperatorActor.ts"
import { OperatorError } from "./OperatorError.ts"
import { report } from "./Output.ts"
import { requireWorkspace } from "./WorkspaceCommands.ts"

/**
 * Adds the user to the workspace with `role`, or changes their role: core's `Members.setRole`
 * (audited by the operator); a deleted user is the command's conflict.
 */
export const addMember = Effect.fn("addMember")(function* (membership: Membership) {
  const members = yield* Members
  return yield* members.setRole(membership, operatorActor).pipe(
    Effect.catchTag("UserDeleted", (deleted) =>
      Effect.fail(
        new OperatorError({
          message: `user ${deleted.userId} was deleted on ${toIso(deleted.deletedAt)}`,
          kind: "conflict"
        })
      )
    )
  )
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

/** A member as marginctl prints it: the membership with the user's e-mail address. */
const memberJson = Effect.fn("memberJson")(function* (membership: Membership) {
  const user = yield* UserRepository.use((users) => users.get(membership.userId))
  return {
    workspace_id: membership.workspaceId,
    user_id: membership.userId,
    email: Option.match(user, { onNone: () => null, onSome: (u) => u.email }),
    role: membership.role,
    user_deleted: Option.match(user, { onNone: () => false, onSome: (u) => u.deletedAt !== null })
  }
})

const list = Command.make(
  "list",
  { workspace: workspaceFlag, limit: limitFlag, after: afterFlag("usr", "member") },
  Effect.fn(function* ({ workspace, limit, after }) {
    yield* requireWorkspace(workspace)
    // One more than the page, to know whether another page follows.
    const found = yield* MembershipRepository.use((memberships) =>
      memberships.listMembers(workspace, {
        afterUserId: Option.getOrNull(Option.map(after, UserId.make)),
        limit: limit + 1
      })
    )
    const members = yield* Effect.forEach(found.slice(0, limit), memberJson)
    const last = members[members.length - 1]
    yield* reportListing(
      { rows: members, after: found.length > limit && last !== undefined ? last.user_id : null },
      [
        ["USER", (m) => m.user_id],
        ["EMAIL", (m) => (m.user_deleted ? `${m.email ?? ""} (deleted)` : m.email)],
        ["ROLE", (m) => m.role]
      ],
      `${workspace} has no members`
    )
  })
).pipe(
  Command.withDescription("List the members of a workspace with their roles, by user id, a page at a time"),
  Command.withExamples([
    { command: "marginctl member list --workspace ws_01jh8x" },
    {
      command: "marginctl member list --workspace ws_01jh8x --limit 100 --after usr_01jh8y --json",
      description: "The next 100 after usr_01jh8y, as a JSON array"
    }
  ])
)

const show = Command.make(
  "show",
  { workspace: workspaceFlag, user: userFlag },
  Effect.fn(function* ({ workspace, user }) {
    yield* requireWorkspace(workspace)
    const membership = yield* MembershipRepository.use((memberships) => memberships.get(workspace, user))
    if (Option.isNone(membership)) {
      return yield* new OperatorError({ message: `${user} is not a member of ${workspace}`, kind: "not_found" })
    }
    yield* report(yield* memberJson(membership.value), (m) =>
      details([
        ["workspace", m.workspace_id],
        ["user", m.user_id],
        ["email", m.user_deleted ? `${m.email ?? ""} (deleted)` : m.email],
        ["role", m.role]
      ])
    )
  })
).pipe(
  Command.withDescription("Show one member's role in a workspace; exits 3 when the user is not a member"),
  Command.withExamples([{ command: "marginctl member show --workspace ws_01jh8x --user usr_01jh8y --json" }])
)

export const memberCommand = Command.make("member").pipe(
  Command.withDescription("Workspace memberships: add, list, show"),
  Command.withExamples([
    { command: "marginctl member add --workspace ws_01jh8x --user usr_01jh8y --role approver" },
    { command: "marginctl member list --workspace ws_01jh8x" }
  ]),
  Command.withSubcommands([onDatabase(add), onDatabase(list), onDatabase(show)])
)
