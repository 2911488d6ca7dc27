import { Context, Duration, Effect, Layer, Option } from "effect"
import type { Actor } from "../access/Actor.ts"
import type { Role } from "../access/Role.ts"
import type {
  ForbiddenRole,
  NoCommerceIntegration,
  RepositoryError,
  ResourceNotFound,
  TierIneligible,
  TransitionConflict
} from "../kernel/Errors.ts"
import type { RecommendationId, WorkspaceId } from "../kernel/Ids.ts"
import type { WriteBack } from "../writeback/WriteBack.ts"
import { type DeliveryOutcome, type DeliveryReport, WriteBackDelivery } from "../writeback/WriteBackDelivery.ts"
import type { Recommendation } from "./Recommendation.ts"
import { Recommendations } from "./Recommendations.ts"

/** Where the write-back of an approval stands when the approver gets the answer. */
export interface WriteBackState {
  /** applied: the store has the new price; pending: a worker delivers it (again); failed: given up, see the alerts. */
  readonly status: "pending" | "applied" | "failed"
  readonly attempts: number
}

export interface ApprovalResult {
  readonly recommendation: Recommendation
  readonly idempotent: boolean
  /** Null on an idempotent repeat: the first approval already answered it. */
  readonly writeBack: WriteBackState | null
}

export type ApprovalError =
  | ForbiddenRole
  | TierIneligible
  | NoCommerceIntegration
  | ResourceNotFound
  | TransitionConflict
  | RepositoryError

/** The state an approver (or an undoer) is told, from what one delivery did. */
export const writeBackStateOf = (outcome: DeliveryOutcome): WriteBackState["status"] => {
  switch (outcome) {
    case "applied":
    case "already_applied":
      return "applied"
    case "price_drift":
    case "rejected":
    case "gave_up":
      return "failed"
    case "retry_scheduled":
    case "not_claimed":
    case "lease_lost":
      return "pending"
  }
}

/**
 * One delivery of a write-back now, within `timeout`, as an approval (and an undo) makes: where it
 * stands afterwards. A slow or failing store leaves the row pending for the workers.
 */
export const deliverNow = (
  delivery: WriteBackDelivery["Service"],
  writeBack: WriteBack,
  timeout: Duration.Input
): Effect.Effect<WriteBackState> =>
  delivery.deliverOne(writeBack).pipe(
    Effect.timeoutOption(timeout),
    Effect.catch((error) =>
      Effect.as(Effect.logWarning("write-back left to the worker", error.message), Option.none<DeliveryReport>())
    ),
    Effect.map(
      (report): WriteBackState =>
        Option.isNone(report)
          ? { status: "pending", attempts: writeBack.attempts }
          : { status: writeBackStateOf(report.value.outcome), attempts: report.value.writeBack.attempts }
    )
  )

/**
 * Approve as both front doors offer it: the approval (role, plan, store, then compare-and-swap and
 * outbox row in one transaction: `Recommendations.approve`), then one opportunistic delivery of its write-back within `deliveryTimeout`.
 * The approval stands whatever the delivery does: a slow or failing store leaves the row pending
 * for the worker, and the answer says so.
 */
export class Approval extends Context.Service<
  Approval,
  {
    readonly approve: (
      workspaceId: WorkspaceId,
      id: RecommendationId,
      actor: Actor,
      role: Role | null
    ) => Effect.Effect<ApprovalResult, ApprovalError>
  }
>()("margin/core/Approval") {
  static readonly layerWith = (options: { readonly deliveryTimeout: Duration.Input }) =>
    Layer.effect(
      Approval,
      Effect.gen(function* () {
        const recommendations = yield* Recommendations
        const delivery = yield* WriteBackDelivery
        return Approval.of({
          approve: Effect.fn("Approval.approve")(function* (workspaceId, id, actor, role) {
            const approved = yield* recommendations.approve(workspaceId, id, actor, role)
            if (approved.idempotent || approved.writeBack === null) {
              return { recommendation: approved.recommendation, idempotent: approved.idempotent, writeBack: null }
            }
            const writeBack = yield* deliverNow(delivery, approved.writeBack, options.deliveryTimeout)
            // Delivery moved the recommendation on (applied / write_back_failed): answer it as it is now.
            const recommendation =
              writeBack.status === "pending"
                ? approved.recommendation
                : yield* recommendations.get(workspaceId, id).pipe(Effect.orElseSucceed(() => approved.recommendation))
            return { recommendation, idempotent: false, writeBack }
          })
        })
      })
    )

  static readonly layer = Approval.layerWith({ deliveryTimeout: Duration.seconds(5) })
}
