import { Clock, Context, Effect, Layer, Option } from "effect"
import { type Actor, actorLabel } from "../access/Actor.ts"
import { hasAtLeast, type Role } from "../access/Role.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { ForbiddenRole, type RepositoryError, ResourceNotFound, TransitionConflict } from "../kernel/Errors.ts"
import type { RecommendationId, WorkspaceId } from "../kernel/Ids.ts"
import { settle, settledValue } from "../kernel/Settle.ts"
import { Transactor } from "../kernel/Transactor.ts"
import type { Recommendation } from "../recommendations/Recommendation.ts"
import * as Machine from "../recommendations/RecommendationMachine.ts"
import { RecommendationRepository } from "../recommendations/RecommendationRepository.ts"
import { WriteBackOutbox } from "./WriteBackOutbox.ts"

/** Who may cancel a pending write-back: those who hold the store connection (admin, owner). */
export const cancellerRole: Role = "admin"

/** The last error of a cancelled write-back starts so: it tells a cancellation from a failure. */
export const cancelledBy = (actor: Actor): string => `cancelled by ${actorLabel(actor)}`

export interface WriteBackCancelled {
  readonly recommendation: Recommendation
  /** The write-back had already been cancelled: nothing changed. */
  readonly idempotent: boolean
}

export type CancelError = ForbiddenRole | ResourceNotFound | TransitionConflict | RepositoryError

/**
 * Cancels the write-back of an approved recommendation while it is still pending (waiting for its
 * first delivery or a retry): the outbox row ends as failed, "cancelled by …", the recommendation
 * becomes `write_back_failed`, and both are audited, in one transaction. A write-back being
 * delivered right now (in flight) cannot be cancelled: the store may be taking the price, and its
 * outcome decides; nor can one that has ended (applied, failed). A repeat is idempotent.
 */
export class WriteBackCancellation extends Context.Service<
  WriteBackCancellation,
  {
    readonly cancel: (
      workspaceId: WorkspaceId,
      recommendationId: RecommendationId,
      actor: Actor,
      role: Role | null
    ) => Effect.Effect<WriteBackCancelled, CancelError>
  }
>()("margin/core/WriteBackCancellation") {
  static readonly layer = Layer.effect(
    WriteBackCancellation,
    Effect.gen(function* () {
      const outbox = yield* WriteBackOutbox
      const recommendations = yield* RecommendationRepository
      const transactor = yield* Transactor
      const trail = yield* AuditTrail

      const recommendationOf = (workspaceId: WorkspaceId, id: RecommendationId) =>
        Effect.flatMap(recommendations.get(workspaceId, id), (found) =>
          Option.isNone(found)
            ? Effect.fail(new ResourceNotFound({ resource: "recommendation", id }))
            : Effect.succeed(found.value)
        )

      const cancel = Effect.fn("WriteBackCancellation.cancel")(function* (
        workspaceId: WorkspaceId,
        recommendationId: RecommendationId,
        actor: Actor,
        role: Role | null
      ) {
        if (role === null || !hasAtLeast(role, cancellerRole)) return yield* new ForbiddenRole({ role })
        const found = yield* outbox.getByRecommendation(workspaceId, recommendationId)
        if (Option.isNone(found)) {
          return yield* new ResourceNotFound({ resource: "write-back of recommendation", id: recommendationId })
        }
        const writeBack = found.value
        if (writeBack.status === "failed" && writeBack.lastError?.startsWith("cancelled by ") === true) {
          return { recommendation: yield* recommendationOf(workspaceId, recommendationId), idempotent: true }
        }
        const refuse = (status: string, reason: string) =>
          new TransitionConflict({ resource: "write_back", id: writeBack.id, status, reason })
        if (writeBack.status === "in_flight") {
          return yield* refuse("in_flight", "it is being delivered to the store now; its outcome decides")
        }
        if (writeBack.status !== "pending") return yield* refuse(writeBack.status, "it has already ended")
        const now = yield* Clock.currentTimeMillis
        const by = actorLabel(actor)
        return yield* transactor.transaction(
          Effect.gen(function* () {
            // A worker may have claimed it since the read above: then it is in flight, and stays so.
            if (!(yield* outbox.cancelPending(workspaceId, writeBack.id, cancelledBy(actor)))) {
              return yield* refuse("in_flight", "a delivery took it meanwhile; its outcome decides")
            }
            const settled = yield* settle(
              "recommendation",
              recommendationId,
              yield* recommendations.update(workspaceId, recommendationId, (current) =>
                Machine.decide(current, Machine.writeBackFailed, now)
              )
            )
            yield* trail.record({
              workspaceId,
              actor: by,
              action: "write_back.cancel",
              resourceType: "write_back",
              resourceId: writeBack.id,
              beforeStatus: "pending",
              afterStatus: "cancelled",
              at: now
            })
            const { value } = settledValue(settled)
            if (settled._tag === "Transitioned") {
              yield* trail.record({
                workspaceId,
                actor: by,
                action: `recommendation.${Machine.commandName(Machine.writeBackFailed)}`,
                resourceType: "recommendation",
                resourceId: recommendationId,
                beforeStatus: settled.before.status,
                afterStatus: settled.after.status,
                at: now
              })
            }
            return { recommendation: value, idempotent: false } satisfies WriteBackCancelled
          })
        )
      })

      return WriteBackCancellation.of({ cancel })
    })
  ).pipe(Layer.provide(AuditTrail.layer))
}
