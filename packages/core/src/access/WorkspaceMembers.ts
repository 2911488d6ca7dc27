import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { AuditTrail } from "../audit/AuditTrail.ts"
import {
  type ForbiddenRole,
  InvalidInput,
  type RepositoryError,
  ResourceNotFound,
  UserDeleted
} from "../kernel/Errors.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { UserId, type WorkspaceId } from "../kernel/Ids.ts"
import { Mailer } from "../kernel/Mailer.ts"
import { Transactor } from "../kernel/Transactor.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { actorLabel } from "./Actor.ts"
import { EmailLinks } from "./EmailLinks.ts"
import { type ActingMember, asManager } from "./Manager.ts"
import type { Membership } from "./Membership.ts"
import { MembershipRepository } from "./MembershipRepository.ts"
import type { Role } from "./Role.ts"
import { Email } from "./User.ts"
import { UserRepository } from "./UserRepository.ts"

/** A member as the settings list them: the membership with the person's address. */
export interface MemberView {
  readonly userId: UserId
  readonly email: string
  readonly role: Role
  readonly emailConfirmed: boolean
}

/**
 * A change of members the contract's roles forbid: making, changing or removing an owner by a
 * non-owner (`owner_only`), leaving the workspace without an owner (`last_owner`), inviting someone
 * who is a member already (`already_member`).
 */
export class MemberChangeRefused extends Schema.TaggedError<MemberChangeRefused>()("MemberChangeRefused", {
  reason: Schema.Literals(["owner_only", "last_owner", "already_member"]),
  message: Schema.String
}) {}

/** An invitation: the new member and whether their sign-in link was handed to the mailer. */
export interface Invitation {
  readonly member: MemberView
  /** Null when the mail went; else why it did not (the membership stands: invite again to resend). */
  readonly mailError: string | null
}

export type MemberChangeError = MemberChangeRefused | ForbiddenRole | ResourceNotFound | RepositoryError

/** A workspace has at most this many members on the settings page (one read). */
export const maxListedMembers = 1000

const ownerOnly = (what: string) =>
  new MemberChangeRefused({ reason: "owner_only", message: `Only an owner can ${what}.` })

const lastOwner = (what: string) =>
  new MemberChangeRefused({
    reason: "last_owner",
    message: `The workspace's last owner cannot be ${what}: make another member owner first.`
  })

/**
 * The workspace's members as an admin or owner manages them (the console's settings): list,
 * invite by e-mail (the membership with the chosen role, and a sign-in link by mail), change a
 * role, remove. The contract's roles: admins manage everyone below owner; only an owner makes,
 * changes or removes an owner; the last owner is never removed or demoted. Each change is audited
 * (`member.add`, `member.set_role`, `member.remove`) in its transaction, which also holds the
 * workspace's lock so that two owners demoting each other cannot both succeed.
 */
export class WorkspaceMembers extends Context.Service<
  WorkspaceMembers,
  {
    readonly list: (
      workspaceId: WorkspaceId,
      member: ActingMember
    ) => Effect.Effect<ReadonlyArray<MemberView>, ForbiddenRole | RepositoryError>
    /** `origin`: the service's configured origin, for the sign-in link of the mail. */
    readonly invite: (
      workspaceId: WorkspaceId,
      member: ActingMember,
      input: { readonly email: string; readonly role: Role; readonly origin: string }
    ) => Effect.Effect<Invitation, MemberChangeError | InvalidInput | UserDeleted>
    /** Answers the member as they are now; the same role again changes nothing. */
    readonly changeRole: (
      workspaceId: WorkspaceId,
      member: ActingMember,
      target: UserId,
      role: Role
    ) => Effect.Effect<MemberView, MemberChangeError>
    /** Answers the member removed. */
    readonly remove: (
      workspaceId: WorkspaceId,
      member: ActingMember,
      target: UserId
    ) => Effect.Effect<MemberView, MemberChangeError>
  }
>()("margin/core/WorkspaceMembers") {
  static readonly layer = Layer.effect(
    WorkspaceMembers,
    Effect.gen(function* () {
      const memberships = yield* MembershipRepository
      const users = yield* UserRepository
      const workspaces = yield* WorkspaceRepository
      const ids = yield* IdGenerator
      const transactor = yield* Transactor
      const trail = yield* AuditTrail
      const links = yield* EmailLinks
      // A process without a mailer still invites: the page says the mail was not sent.
      const mailer = yield* Effect.serviceOption(Mailer)

      const viewOf = (membership: Membership) =>
        Effect.map(
          users.get(membership.userId),
          (user): MemberView => ({
            userId: membership.userId,
            role: membership.role,
            email: Option.match(user, { onNone: () => "", onSome: (found) => found.email }),
            emailConfirmed: Option.exists(user, (found) => found.emailConfirmed)
          })
        )

      const memberOf = (workspaceId: WorkspaceId, userId: UserId) =>
        Effect.flatMap(memberships.get(workspaceId, userId), (found) =>
          Option.match(found, {
            onNone: () => Effect.fail(new ResourceNotFound({ resource: "member", id: userId })),
            onSome: Effect.succeed
          })
        )

      const owners = (workspaceId: WorkspaceId) =>
        Effect.map(
          memberships.listForWorkspace(workspaceId),
          (managers) => managers.filter((one) => one.role === "owner").length
        )

      const audit = (
        workspaceId: WorkspaceId,
        member: ActingMember,
        action: string,
        target: UserId,
        before: Role | null,
        after: Role | null,
        at: number
      ) =>
        trail.record({
          workspaceId,
          actor: actorLabel({ _tag: "SessionActor", userId: member.userId }),
          action,
          resourceType: "membership",
          resourceId: target,
          beforeStatus: before,
          afterStatus: after,
          at
        })

      /** A change of one member, its rules checked under the workspace's lock, audited with it. */
      const change = <A>(
        workspaceId: WorkspaceId,
        member: ActingMember,
        target: UserId,
        apply: (actorRole: Role, current: Membership, owners: number) => Effect.Effect<A, MemberChangeError>
      ) =>
        Effect.gen(function* () {
          const actorRole = yield* asManager(member)
          return yield* transactor.transaction(
            Effect.gen(function* () {
              yield* workspaces.lockUsage(workspaceId)
              const current = yield* memberOf(workspaceId, target)
              return yield* apply(actorRole, current, yield* owners(workspaceId))
            })
          )
        })

      const inviteMail = (email: string, workspaceName: string, link: string, now: number) => ({
        key: `invite:${email}:${now}`,
        to: email,
        subject: `You were invited to ${workspaceName} on Margin`,
        text: [
          `You were invited to the workspace ${workspaceName} on Margin.`,
          "",
          `Sign in (the link works once, for 10 minutes): ${link}`,
          "",
          "Later, sign in from the console's sign-in page with this address."
        ].join("\n"),
        date: now
      })

      return WorkspaceMembers.of({
        list: Effect.fn("WorkspaceMembers.list")(function* (workspaceId, member) {
          yield* asManager(member)
          const all = yield* memberships.listMembers(workspaceId, { afterUserId: null, limit: maxListedMembers })
          return yield* Effect.forEach(all, viewOf)
        }),

        invite: Effect.fn("WorkspaceMembers.invite")(function* (workspaceId, member, input) {
          const actorRole = yield* asManager(member)
          if (input.role === "owner" && actorRole !== "owner") return yield* ownerOnly("make an owner")
          const email = input.email.trim().toLowerCase()
          if (email.length > 254 || !Schema.is(Email)(email)) {
            return yield* new InvalidInput({ path: "email", message: "an e-mail address like name@example.com" })
          }
          const workspace = yield* workspaces.get(workspaceId)
          if (Option.isNone(workspace)) return yield* new ResourceNotFound({ resource: "workspace", id: workspaceId })
          const now = yield* Clock.currentTimeMillis
          const known = yield* users.findByEmail(email)
          if (Option.isSome(known) && known.value.deletedAt !== null) {
            return yield* new UserDeleted({ userId: known.value.id, deletedAt: known.value.deletedAt })
          }
          const userId = Option.isSome(known) ? known.value.id : UserId.make(yield* ids.next("user"))
          const membership: Membership = { workspaceId, userId, role: input.role }
          yield* transactor.transaction(
            Effect.gen(function* () {
              if (Option.isNone(known)) {
                yield* users.insert({ id: userId, email, emailConfirmed: false, deletedAt: null, createdAt: now })
              } else if (Option.isSome(yield* memberships.get(workspaceId, userId))) {
                return yield* new MemberChangeRefused({
                  reason: "already_member",
                  message: `${email} is a member already: change their role in the list.`
                })
              }
              yield* memberships.upsert(membership)
              yield* audit(workspaceId, member, "member.add", userId, null, input.role, now)
            })
          )
          const path = yield* links.signIn(userId, `/app/w/${encodeURIComponent(workspaceId)}/recommendations`)
          const mailError = yield* Option.match(mailer, {
            onNone: () => Effect.succeed("this server sends no mail"),
            onSome: (found) =>
              found.send(inviteMail(email, workspace.value.name, `${input.origin}${path}`, now)).pipe(
                Effect.as(null),
                Effect.catchTag("MailNotSent", (error) => Effect.succeed(error.reason))
              )
          })
          return {
            member: { userId, email, role: input.role, emailConfirmed: Option.exists(known, (u) => u.emailConfirmed) },
            mailError
          }
        }),

        changeRole: Effect.fn("WorkspaceMembers.changeRole")(function* (workspaceId, member, target, role) {
          const changed = yield* change(workspaceId, member, target, (actorRole, current, ownerCount) =>
            Effect.gen(function* () {
              if (current.role === role) return current
              if ((role === "owner" || current.role === "owner") && actorRole !== "owner") {
                return yield* ownerOnly(role === "owner" ? "make an owner" : "change an owner's role")
              }
              if (current.role === "owner" && ownerCount <= 1) return yield* lastOwner("demoted")
              const next = { ...current, role }
              yield* memberships.upsert(next)
              yield* audit(
                workspaceId,
                member,
                "member.set_role",
                target,
                current.role,
                role,
                yield* Clock.currentTimeMillis
              )
              return next
            })
          )
          return yield* viewOf(changed)
        }),

        remove: Effect.fn("WorkspaceMembers.remove")(function* (workspaceId, member, target) {
          const removed = yield* change(workspaceId, member, target, (actorRole, current, ownerCount) =>
            Effect.gen(function* () {
              if (current.role === "owner" && actorRole !== "owner") return yield* ownerOnly("remove an owner")
              if (current.role === "owner" && ownerCount <= 1) return yield* lastOwner("removed")
              yield* memberships.remove(workspaceId, target)
              yield* audit(
                workspaceId,
                member,
                "member.remove",
                target,
                current.role,
                null,
                yield* Clock.currentTimeMillis
              )
              return current
            })
          )
          return yield* viewOf(removed)
        })
      })
    })
  ).pipe(Layer.provide(AuditTrail.layer))
}
