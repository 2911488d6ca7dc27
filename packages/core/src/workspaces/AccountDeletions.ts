import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { MembershipRepository } from "../access/MembershipRepository.ts"
import { UserRepository } from "../access/UserRepository.ts"
import { auditedChange } from "../audit/AuditedChange.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { type RepositoryError, ResourceNotFound, UserDeleted } from "../kernel/Errors.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { DeletionRequestId, type UserId } from "../kernel/Ids.ts"
import type { DeletionRequest, DeletionState } from "./DeletionRequest.ts"
import { DeletionRequestRepository } from "./DeletionRequestRepository.ts"

/** Blocking or cancelling needs a pending or blocked request. */
export class NoActiveDeletion extends Schema.TaggedError<NoActiveDeletion>()("NoActiveDeletion", {
  userId: Schema.String
}) {}

/**
 * Requests to delete a user's account (`marginctl deletion`): scheduled for a later instant,
 * blocked (a legal hold) or cancelled while still pending or blocked. A user has no workspace of
 * their own, so each change is audited, by `actor`, in each workspace they belong to.
 */
export class AccountDeletions extends Context.Service<
  AccountDeletions,
  {
    /**
     * Schedules the deletion of a user (known, not deleted); a request already pending or blocked
     * is answered as it is (`createdNow` false).
     */
    readonly request: (
      userId: UserId,
      effectiveInDays: number,
      actor: string
    ) => Effect.Effect<
      { readonly request: DeletionRequest; readonly createdNow: boolean },
      ResourceNotFound | UserDeleted | RepositoryError
    >
    /** Moves the pending or blocked request of a user (deleted or not) to `state`; answers the request as it was. */
    readonly move: (
      userId: UserId,
      state: "blocked" | "cancelled",
      actor: string
    ) => Effect.Effect<DeletionRequest, ResourceNotFound | NoActiveDeletion | RepositoryError>
  }
>()("margin/core/AccountDeletions") {
  static readonly layer = Layer.effect(
    AccountDeletions,
    Effect.gen(function* () {
      const requests = yield* DeletionRequestRepository
      const memberships = yield* MembershipRepository
      const users = yield* UserRepository
      const ids = yield* IdGenerator
      const audited = yield* auditedChange
      const forUser = <A, E>(
        actor: string,
        change: Effect.Effect<A, E>,
        userId: UserId,
        action: string,
        before: DeletionState | null,
        after: DeletionState
      ) =>
        Effect.flatMap(memberships.listForUser(userId), (belongs) =>
          audited(actor, change, () =>
            belongs.map((membership) => ({
              workspaceId: membership.workspaceId,
              action,
              resourceType: "deletion_request",
              resourceId: userId,
              beforeStatus: before,
              afterStatus: after
            }))
          )
        )
      const known = (userId: UserId) =>
        Effect.flatMap(users.get(userId), (found) =>
          Option.match(found, {
            onNone: () => Effect.fail(new ResourceNotFound({ resource: "user", id: userId })),
            onSome: Effect.succeed
          })
        )
      return AccountDeletions.of({
        request: Effect.fn("AccountDeletions.request")(function* (userId, effectiveInDays, actor) {
          const user = yield* known(userId)
          if (user.deletedAt !== null) return yield* new UserDeleted({ userId, deletedAt: user.deletedAt })
          const active = yield* requests.activeFor(userId)
          if (Option.isSome(active)) return { request: active.value, createdNow: false }
          const now = yield* Clock.currentTimeMillis
          const created: DeletionRequest = {
            id: DeletionRequestId.make(yield* ids.next("deletionRequest")),
            userId,
            state: "pending",
            scheduledAt: now,
            effectiveAt: now + effectiveInDays * 86_400_000
          }
          yield* forUser(actor, requests.insert(created), userId, "deletion.request", null, "pending")
          return { request: created, createdNow: true }
        }),
        move: Effect.fn("AccountDeletions.move")(function* (userId, state, actor) {
          yield* known(userId)
          const active = yield* requests.activeFor(userId)
          if (Option.isNone(active)) return yield* new NoActiveDeletion({ userId })
          const action = state === "blocked" ? "deletion.block" : "deletion.cancel"
          yield* forUser(actor, requests.setState(userId, state), userId, action, active.value.state, state)
          return active.value
        })
      })
    })
  ).pipe(Layer.provide(AuditTrail.layer))
}
