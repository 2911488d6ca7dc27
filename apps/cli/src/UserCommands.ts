import { Accounts } from "@margin/core/access/Accounts"
import { MembershipRepository } from "@margin/core/access/MembershipRepository"
import { Email, type User } from "@margin/core/access/User"
import { UserRepository } from "@margin/core/access/UserRepository"
import { ResourceNotFound } from "@margin/core/kernel/Errors"
import { UserId } from "@margin/core/kernel/Ids"
import { toIso } from "@margin/core/kernel/Timestamp"
import { onDatabase } from "@margin/runtime/cli"
import { Effect, Option, Schema } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { details } from "./Details.ts"
import { idOf, userFlag } from "./Flags.ts"
import { afterFlag, cursorAt, limitFlag, listingOf, reportListing } from "./Listing.ts"
import { operatorActor } from "./OperatorActor.ts"
import { OperatorError } from "./OperatorError.ts"
import { report } from "./Output.ts"

/** A deleted user, in the operator's words: a conflict. */
export const userDeletedSaid = (deleted: { readonly userId: string; readonly deletedAt: number }) =>
  new OperatorError({ message: `user ${deleted.userId} was deleted on ${toIso(deleted.deletedAt)}`, kind: "conflict" })

/** The user, or a failure naming the id; a deleted user counts as gone unless `allowDeleted`. */
export const requireUser = Effect.fn("requireUser")(function* (id: UserId, allowDeleted = false) {
  const found = yield* UserRepository.use((users) => users.get(id))
  if (Option.isNone(found)) return yield* new ResourceNotFound({ resource: "user", id })
  if (found.value.deletedAt !== null && !allowDeleted) {
    return yield* userDeletedSaid({ userId: id, deletedAt: found.value.deletedAt })
  }
  return found.value
})

/** Creates a user, refusing an e-mail address another user already has. */
export const createUser = (email: string, confirmed: boolean) =>
  Accounts.use((accounts) => accounts.create(email, confirmed)).pipe(
    Effect.catchTag("EmailTaken", (taken) =>
      Effect.fail(
        new OperatorError({
          message: `a user with e-mail ${taken.email} exists already: ${taken.userId}`,
          kind: "conflict"
        })
      )
    )
  )

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
    const { user, deletedNow } = yield* Accounts.use((accounts) => accounts.delete(id, operatorActor))
    if (!deletedNow) {
      return yield* report(
        { ...userJson(user), already_deleted: true },
        (u) => `User ${u.id} was deleted already, on ${u.deleted_at}`
      )
    }
    yield* report(
      { ...userJson(user), already_deleted: false },
      (u) => `Deleted user ${u.id} <${u.email}>; the tokens they issued can no longer mutate`
    )
  })
).pipe(
  Command.withDescription("Delete a user (soft delete: their tokens stop working for mutations)"),
  Command.withExamples([{ command: "marginctl user delete --user usr_01jh8y" }])
)

const list = Command.make(
  "list",
  { limit: limitFlag, after: afterFlag("usr", "user") },
  Effect.fn(function* ({ limit, after }) {
    const cursor = Option.isSome(after) ? cursorAt(yield* requireUser(UserId.make(after.value), true)) : null
    const page = yield* UserRepository.use((users) => users.list({ limit, cursor }))
    yield* reportListing(
      listingOf(page, userJson, (user) => user.id),
      [
        ["ID", (u) => u.id],
        ["EMAIL", (u) => u.email],
        ["CONFIRMED", (u) => (u.email_confirmed ? "yes" : "no")],
        ["CREATED", (u) => u.created_at],
        ["DELETED", (u) => u.deleted_at]
      ],
      "There are no users"
    )
  })
).pipe(
  Command.withDescription("List every user, deleted ones too, newest first, a page at a time"),
  Command.withExamples([
    { command: "marginctl user list", description: "The 50 newest, as a table" },
    { command: "marginctl user list --after usr_01jh8y --json", description: "The next page, as a JSON array" }
  ])
)

const isUserId = Schema.is(idOf("usr"))
const isEmail = Schema.is(Email)

/** A user id (`usr_…`) or an e-mail address. */
const UserRef = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter(
      (text: string) => isUserId(text) || isEmail(text) || "expected a user id (usr_…) or an e-mail address"
    )
  )
)

const show = Command.make(
  "show",
  {
    user: Argument.String("user").pipe(
      Argument.withDescription("The user id (usr_…) or e-mail address"),
      Argument.withSchema(UserRef)
    )
  },
  Effect.fn(function* ({ user: ref }) {
    const user = isUserId(ref)
      ? yield* requireUser(UserId.make(ref), true)
      : yield* Effect.flatMap(
          UserRepository.use((users) => users.findByEmail(ref)),
          Option.match({
            onNone: () => Effect.fail(new ResourceNotFound({ resource: "user with e-mail", id: ref })),
            onSome: Effect.succeed
          })
        )
    const memberships = yield* MembershipRepository.use((repository) => repository.listForUser(user.id))
    yield* report(
      {
        ...userJson(user),
        memberships: memberships.map((membership) => ({ workspace_id: membership.workspaceId, role: membership.role }))
      },
      (u) =>
        details([
          ["id", u.id],
          ["email", u.email],
          ["confirmed", u.email_confirmed ? "yes" : "no"],
          ["created", u.created_at],
          ["deleted", u.deleted_at],
          [
            "member of",
            u.memberships.length === 0
              ? "no workspace"
              : u.memberships.map((m) => `${m.workspace_id} (${m.role})`).join(", ")
          ]
        ])
    )
  })
).pipe(
  Command.withDescription(
    "Show a user, by id or e-mail address, and the workspaces they belong to; exits 3 when there is no such user"
  ),
  Command.withExamples([
    { command: "marginctl user show usr_01jh8y --json" },
    { command: "marginctl user show ada@acme.example", description: "By e-mail address, without regard to case" }
  ])
)

export const userCommand = Command.make("user").pipe(
  Command.withDescription("Create, list, show and delete users"),
  Command.withExamples([
    { command: "marginctl user create --email ada@acme.example" },
    { command: "marginctl user show ada@acme.example" }
  ]),
  Command.withSubcommands([onDatabase(create), onDatabase(list), onDatabase(show), onDatabase(remove)])
)
