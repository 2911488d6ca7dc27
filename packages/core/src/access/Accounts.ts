import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { auditedChange } from "../audit/AuditedChange.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { type RepositoryError, ResourceNotFound } from "../kernel/Errors.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { UserId } from "../kernel/Ids.ts"
import { MembershipRepository } from "./MembershipRepository.ts"
import type { User } from "./User.ts"
import { UserRepository } from "./UserRepository.ts"

/** Another user has this e-mail address already. */
export class EmailTaken extends Schema.TaggedError<EmailTaken>()("EmailTaken", {
  email: Schema.String,
  userId: Schema.String
}) {}

/**
 * The platform operator's changes to user accounts (`marginctl user`): create one, delete one (a
 * soft delete: the tokens they issued stop working for mutations). A user has no workspace of their
 * own, so a deletion is audited in each workspace they belong to.
 */
export class Accounts extends Context.Service<
  Accounts,
  {
    /** A new user; an address another user has already is refused. */
    readonly create: (email: string, emailConfirmed: boolean) => Effect.Effect<User, EmailTaken | RepositoryError>
    /** Deletes the user; a user deleted already is answered as they are (`deletedNow` false). */
    readonly delete: (
      userId: UserId,
      actor: string
    ) => Effect.Effect<{ readonly user: User; readonly deletedNow: boolean }, ResourceNotFound | RepositoryError>
  }
>()("margin/core/Accounts") {
  static readonly layer = Layer.effect(
    Accounts,
    Effect.gen(function* () {
      const users = yield* UserRepository
      const memberships = yield* MembershipRepository
      const ids = yield* IdGenerator
      const audited = yield* auditedChange
      return Accounts.of({
        create: Effect.fn("Accounts.create")(function* (email, emailConfirmed) {
          const existing = yield* users.findByEmail(email)
          if (Option.isSome(existing)) return yield* new EmailTaken({ email, userId: existing.value.id })
          const user: User = {
            id: UserId.make(yield* ids.next("user")),
            email,
            emailConfirmed,
            deletedAt: null,
            createdAt: yield* Clock.currentTimeMillis
          }
          yield* users.insert(user)
          return user
        }),
        delete: Effect.fn("Accounts.delete")(function* (userId, actor) {
          const found = yield* users.get(userId)
          if (Option.isNone(found)) return yield* new ResourceNotFound({ resource: "user", id: userId })
          if (found.value.deletedAt !== null) return { user: found.value, deletedNow: false }
          const now = yield* Clock.currentTimeMillis
          const belongs = yield* memberships.listForUser(userId)
          yield* audited(actor, users.markDeleted(userId, now), () =>
            belongs.map((membership) => ({
              workspaceId: membership.workspaceId,
              action: "user.delete",
              resourceType: "user",
              resourceId: userId,
              beforeStatus: "active",
              afterStatus: "deleted"
            }))
          )
          return { user: { ...found.value, deletedAt: now }, deletedNow: true }
        })
      })
    })
  ).pipe(Layer.provide(AuditTrail.layer))
}
