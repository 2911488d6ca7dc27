import { ResourceNotFound } from "@margin/core/Errors"
import { UserId } from "@margin/core/Ids"
import { IdGenerator } from "@margin/core/ports/IdGenerator"
import { MembershipRepository } from "@margin/core/ports/MembershipRepository"
import { UserRepository } from "@margin/core/ports/UserRepository"
import { toIso } from "@margin/core/Timestamp"
import { Email, type User } from "@margin/core/User"
import { onDatabase } from "@margin/runtime/cli"
import { Clock, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { userFlag } from "./Flags.ts"
import { audited } from "./OperatorAudit.ts"
import { OperatorError } from "./OperatorError.ts"
import { report } from "./Output.ts"

/** The user, or a failure naming the id; a deleted user counts as gone unless `allowDeleted`. */
export const requireUser = Effect.fn("requireUser")(function* (id: UserId, allowDeleted = false) {
  const found = yield* UserRepository.use((users) => users.get(id))
  if (Option.isNone(found)) return yield* new ResourceNotFound({ resource: "user", id })
  if (found.value.deletedAt !== null && !allowDeleted) {
    return yield* new OperatorError({
      message: `user ${id} was deleted on ${toIso(found.value.deletedAt)}`,
      kind: "conflict"
    })
  }
  return found.value
})

/** Creates a user, refusing an e-mail address another user already has. */
export const createUser = Effect.fn("createUser")(function* (email: string, confirmed: boolean) {
  const users = yield* UserRepository
  const existing = yield* users.findByEmail(email)
  if (Option.isSome(existing)) {
    return yield* new OperatorError({
      message: `a user with e-mail ${email} exists already: ${existing.value.id}`,
      kind: "conflict"
    })
  }
  const user: User = {
    id: UserId.make(yield* (yield* IdGenerator).next("user")),
    email,
    emailConfirmed: confirmed,
    deletedAt: null,
    createdAt: yield* Clock.currentTimeMillis
  }
  yield* users.insert(user)
  return user
})

const userJson = (user: User) => ({
  id: user.id,
  email: user.email,
  email_confirmed: user.emailConfirmed,
  deleted_at: user.deletedAt === null ? null : toIso(user.deletedAt),
  created_at: toIso(user.createdAt)
})

const create = Command.make(
  "create",
  {
    email: Flag.String("email").pipe(Flag.withDescription("The user's e-mail address"), Flag.withSchema(Email)),
    unconfirmed: Flag.Boolean("unconfirmed").pipe(
      Flag.withDescription("The e-mail address is not confirmed yet (such a user cannot trigger runs)"),
      Flag.withDefault(false)
    )
  },
  Effect.fn(function* ({ email, unconfirmed }) {
    const user = yield* createUser(email.trim(), !unconfirmed)
    yield* report(
      userJson(user),
      (u) => `Created user ${u.id} <${u.email}>${u.email_confirmed ? "" : " (e-mail not confirmed)"}`
    )
  })
).pipe(
  Command.withDescription("Create a user; prints its id"),
  Command.withExamples([{ command: "marginctl user create --email ada@acme.example --json" }])
)

const remove = Command.make(
  "delete",
  { user: userFlag },
  Effect.fn(function* ({ user: id }) {
    const user = yield* requireUser(id, true)
    if (user.deletedAt !== null) {
      return yield* report(
        { ...userJson(user), already_deleted: true },
        (u) => `User ${u.id} was deleted already, on ${u.deleted_at}`
      )
    }
    const now = yield* Clock.currentTimeMillis
    const memberships = yield* MembershipRepository.use((repository) => repository.listForUser(id))
    yield* audited(
      UserRepository.use((users) => users.markDeleted(id, now)),
      () =>
        // A user has no workspace of their own: each workspace they belong to records the deletion.
        memberships.map((membership) => ({
          workspaceId: membership.workspaceId,
          action: "user.delete",
          resourceType: "user",
          resourceId: id,
          beforeStatus: "active",
          afterStatus: "deleted"
        }))
    )
    yield* report(
      { ...userJson({ ...user, deletedAt: now }), already_deleted: false },
      (u) => `Deleted user ${u.id} <${u.email}>; the tokens they issued can no longer mutate`
    )
  })
).pipe(
  Command.withDescription("Delete a user (soft delete: their tokens stop working for mutations)"),
  Command.withExamples([{ command: "marginctl user delete --user usr_01jh8y" }])
)

export const userCommand = Command.make("user").pipe(
  Command.withDescription("Create and delete users"),
  Command.withExamples([{ command: "marginctl user create --email ada@acme.example" }]),
  Command.withSubcommands([onDatabase(create), onDatabase(remove)])
)
