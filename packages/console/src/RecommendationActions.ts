import type { Actor } from "@margin/core/access/Actor"
import { mayTriage, type Role } from "@margin/core/access/Role"
import type { RecommendationId, WorkspaceId } from "@margin/core/kernel/Ids"
import { Approval, type ApprovalError } from "@margin/core/recommendations/Approval"
import type { Recommendation } from "@margin/core/recommendations/Recommendation"
import { Recommendations } from "@margin/core/recommendations/Recommendations"
import { Effect } from "effect"

export const actions = ["accept", "dismiss", "approve", "reject"] as const
export type Action = (typeof actions)[number]

export const isAction = (name: string): name is Action => actions.some((action) => action === name)

/** What one action on one recommendation came to, as the console shows it. */
export type ActionOutcome =
  | { readonly _tag: "Done"; readonly recommendation: Recommendation; readonly writeBack: string | null }
  | { readonly _tag: "Repeat"; readonly recommendation: Recommendation | null }
  | { readonly _tag: "Refused"; readonly status: number; readonly message: string }

const refused = (status: number, message: string): ActionOutcome => ({ _tag: "Refused", status, message })

/** The person acting: who, and their role in the workspace. */
export interface Acting {
  readonly actor: Actor
  readonly role: Role
}

/**
 * One action through the use cases, exactly as the REST handlers call them: accept and dismiss
 * through `Recommendations` (behind the console's role rule: analyst or higher), approve through
 * `Approval` and reject through `Recommendations` (their role rule is the use case's own). Every
 * expected failure becomes an outcome with the status and words a page shows; none escapes.
 */
export const actionRunner = Effect.gen(function* () {
  const recommendations = yield* Recommendations
  const approval = yield* Approval
  return (
    workspaceId: WorkspaceId,
    id: RecommendationId,
    action: Action,
    acting: Acting,
    reason: string
  ): Effect.Effect<ActionOutcome> => {
    if ((action === "accept" || action === "dismiss") && !mayTriage(acting.role)) {
      return Effect.succeed(refused(403, `Your role (${acting.role}) may not ${action}: it needs analyst or higher.`))
    }
    const outcome: Effect.Effect<ActionOutcome, ApprovalError> =
      action === "accept" || action === "dismiss"
        ? Effect.map(
            (action === "accept" ? recommendations.accept : recommendations.dismiss)(workspaceId, id, acting.actor),
            (mutation): ActionOutcome =>
              mutation.idempotent
                ? { _tag: "Repeat", recommendation: mutation.recommendation }
                : { _tag: "Done", recommendation: mutation.recommendation, writeBack: null }
          )
        : action === "approve"
          ? Effect.map(
              approval.approve(workspaceId, id, acting.actor, acting.role),
              (result): ActionOutcome =>
                result.idempotent
                  ? { _tag: "Repeat", recommendation: result.recommendation }
                  : { _tag: "Done", recommendation: result.recommendation, writeBack: result.writeBack?.status ?? null }
            )
          : Effect.map(
              recommendations.reject(workspaceId, id, acting.actor, acting.role, reason),
              (mutation): ActionOutcome => ({ _tag: "Done", recommendation: mutation.recommendation, writeBack: null })
            )
    return Effect.catch(outcome, (error) => Effect.succeed(refusalOf(error, action, acting.role)))
  }
})

/** The page's words for an expected failure of the use case. */
const refusalOf = (error: ApprovalError, action: Action, role: Role): ActionOutcome => {
  switch (error._tag) {
    case "ForbiddenRole":
      return refused(403, `Your role (${role}) may not ${action}: it needs approver, admin or owner.`)
    case "ResourceNotFound":
      return refused(404, "No such recommendation in this workspace.")
    case "TransitionConflict":
      return refused(
        409,
        `Conflict: the recommendation is ${error.status.replaceAll("_", " ")}, so it cannot be ${pastTense[action]} now.`
      )
    case "TierIneligible":
      return refused(422, `The ${error.plan} plan does not write prices back: approving needs Max or Enterprise.`)
    case "NoCommerceIntegration":
      return refused(422, "No store is connected: connect one before approving.")
    case "RepositoryError":
      return refused(503, "The service could not reach its database: try again.")
  }
}

export const pastTense: Readonly<Record<Action, string>> = {
  accept: "accepted",
  dismiss: "dismissed",
  approve: "approved",
  reject: "rejected"
}
