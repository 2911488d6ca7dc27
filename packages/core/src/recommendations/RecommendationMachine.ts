/**
 * The life of a recommendation (docs/contract.md, "States and repeats"):
 *
 * ```
 * new --accept--> pending_approval --approve--> approved --(write-back ok)--> applied
 *  |                   |                           \--(write-back gave up)--> write_back_failed
 *  |                   \--reject--> rejected
 *  \--dismiss--> dismissed          (dismiss is also allowed from pending_approval)
 * new / pending_approval --(a newer run recommends for the same item)--> superseded
 * ```
 * A run takes the last edge from `pending_approval` only when something the accepted recommendation
 * rested on changed, and then records on it what replaced it and why (DecisionMemory.ts).
 *
 * A command that has already taken effect on the recommendation is an `IdempotentRepeat`
 * whatever happened after it: an accept repeated after the approval, or after a dismissal
 * from pending_approval, is still a repeat. The timestamps the machine sets (`acceptedAt`,
 * `approvedAt`, `dismissedAt`) are the record of what took effect. A repeated reject is a
 * `Conflict`: the contract has no idempotent reject. The machine never touches `version`:
 * repositories bump it when they save.
 */
import { type CatalogItemId, RecommendationId, type RunId, type WorkspaceId } from "../kernel/Ids.ts"
import * as Outcome from "../kernel/Outcome.ts"
import type { PriceRecommendation } from "../pricing/PriceRecommendation.ts"
import type { Recommendation, RecommendationStatus } from "./Recommendation.ts"
import type { RecommendationBasis } from "./RecommendationBasis.ts"

export type RecommendationCommand =
  | { readonly _tag: "Accept"; readonly actor: string }
  | { readonly _tag: "Dismiss"; readonly actor: string }
  | { readonly _tag: "Approve"; readonly actor: string }
  | { readonly _tag: "Reject"; readonly actor: string; readonly reason: string }
  | { readonly _tag: "Supersede"; readonly newerRunId: RunId }
  | { readonly _tag: "WriteBackApplied" }
  | { readonly _tag: "WriteBackFailed" }

export type RecommendationCommandTag = RecommendationCommand["_tag"]

interface Rule {
  readonly from: ReadonlyArray<RecommendationStatus>
  readonly to: RecommendationStatus
  /** True once the command has taken effect; null when a repeat is never idempotent. */
  readonly tookEffect: ((recommendation: Recommendation) => boolean) | null
}

/** Every allowed transition, and how the machine recognises a repeat. */
export const recommendationTransitions = {
  Accept: { from: ["new"], to: "pending_approval", tookEffect: (r) => r.acceptedAt !== null },
  Dismiss: { from: ["new", "pending_approval"], to: "dismissed", tookEffect: (r) => r.dismissedAt !== null },
  Approve: { from: ["pending_approval"], to: "approved", tookEffect: (r) => r.approvedAt !== null },
  Reject: { from: ["pending_approval"], to: "rejected", tookEffect: null },
  Supersede: { from: ["new", "pending_approval"], to: "superseded", tookEffect: (r) => r.status === "superseded" },
  WriteBackApplied: { from: ["approved"], to: "applied", tookEffect: (r) => r.status === "applied" },
  WriteBackFailed: { from: ["approved"], to: "write_back_failed", tookEffect: (r) => r.status === "write_back_failed" }
} as const satisfies Record<RecommendationCommandTag, Rule>

/** Which run recommended for which item. */
export interface RecommendationOrigin {
  readonly workspaceId: WorkspaceId
  readonly runId: RunId
  readonly itemId: CatalogItemId
  readonly sku: string
}

/**
 * The machine's initial state: a `new` recommendation of the engine's price, nobody has decided on it,
 * with what it rested on (null where unknown).
 */
export const recommend = (
  id: string,
  origin: RecommendationOrigin,
  price: PriceRecommendation,
  now: number,
  basis: RecommendationBasis | null = null
): Recommendation => ({
  id: RecommendationId.make(id),
  ...origin,
  ...price,
  status: "new",
  acceptedAt: null,
  acceptedBy: null,
  approvedAt: null,
  decidedBy: null,
  decidedAt: null,
  rejectReason: null,
  dismissedAt: null,
  basis,
  supersededBy: null,
  supersededReason: null,
  version: 0,
  createdAt: now,
  updatedAt: now
})

export const accept = (actor: string): RecommendationCommand => ({ _tag: "Accept", actor })
export const dismiss = (actor: string): RecommendationCommand => ({ _tag: "Dismiss", actor })
export const approve = (actor: string): RecommendationCommand => ({ _tag: "Approve", actor })
export const reject = (actor: string, reason: string): RecommendationCommand => ({ _tag: "Reject", actor, reason })
export const supersede = (newerRunId: RunId): RecommendationCommand => ({ _tag: "Supersede", newerRunId })
export const writeBackApplied: RecommendationCommand = { _tag: "WriteBackApplied" }
export const writeBackFailed: RecommendationCommand = { _tag: "WriteBackFailed" }

/** The audit / error name of a command: `accept`, `write_back_applied`... */
export const commandName = (command: RecommendationCommand): string =>
  command._tag.replace(/(?<=[a-z])(?=[A-Z])/g, "_").toLowerCase()

/** Decides one command on one recommendation at `now`. Pure and total: it never throws. */
export const decide = (
  recommendation: Recommendation,
  command: RecommendationCommand,
  now: number
): Outcome.Outcome<Recommendation> => {
  const rule: Rule = recommendationTransitions[command._tag]
  if (rule.tookEffect?.(recommendation) === true) return Outcome.idempotentRepeat(recommendation)
  if (!rule.from.includes(recommendation.status)) {
    return Outcome.conflict(
      recommendation,
      `${commandName(command)} is allowed only from ${rule.from.join(" or ")}; the recommendation is ${recommendation.status}`
    )
  }
  if (command._tag === "Supersede" && command.newerRunId === recommendation.runId) {
    return Outcome.conflict(recommendation, "a run does not supersede its own recommendations")
  }
  return Outcome.transitioned(recommendation, { ...recommendation, ...effects(command, now), status: rule.to })
}

/** The fields each command records besides the status. */
const effects = (command: RecommendationCommand, now: number): Partial<Recommendation> => {
  switch (command._tag) {
    case "Accept":
      return { acceptedAt: now, acceptedBy: command.actor, updatedAt: now }
    case "Approve":
      return { approvedAt: now, decidedBy: command.actor, decidedAt: now, updatedAt: now }
    case "Reject":
      return { decidedBy: command.actor, decidedAt: now, rejectReason: command.reason, updatedAt: now }
    // Dismissing is the decision not to act: who made it is kept in decidedBy.
    case "Dismiss":
      return { dismissedAt: now, decidedBy: command.actor, decidedAt: now, updatedAt: now }
    case "Supersede":
    case "WriteBackApplied":
    case "WriteBackFailed":
      return { updatedAt: now }
  }
}
