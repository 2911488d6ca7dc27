import { Clock, Context, Effect, Layer, Option } from "effect"
import { type Actor, actorLabel } from "../access/Actor.ts"
import { mayDecide, type Role } from "../access/Role.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { CatalogRepository } from "../catalog/CatalogRepository.ts"
import {
  ForbiddenRole,
  NoCommerceIntegration,
  type RepositoryError,
  ResourceNotFound,
  TierIneligible
} from "../kernel/Errors.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { type RecommendationId, type WorkspaceId, WriteBackId } from "../kernel/Ids.ts"
import type { Page, PageRequest } from "../kernel/Page.ts"
import { type CommandError, type Settled, settledValue } from "../kernel/Settle.ts"
import { Transactor } from "../kernel/Transactor.ts"
import { isConnected } from "../stores/StoreConnection.ts"
import { StoreConnectionRepository } from "../stores/StoreConnectionRepository.ts"
import { planLimits } from "../workspaces/Plan.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import type { WriteBack } from "../writeback/WriteBack.ts"
import { WriteBackOutbox } from "../writeback/WriteBackOutbox.ts"
import type { Recommendation } from "./Recommendation.ts"
import * as Machine from "./RecommendationMachine.ts"
import { type RecommendationFilter, RecommendationRepository } from "./RecommendationRepository.ts"

/** The recommendation after a command, and whether the command had already taken effect. */
export interface RecommendationMutation {
  readonly recommendation: Recommendation
  readonly idempotent: boolean
}

/**
 * Reject has no repeat: its rule in the machine never recognises one, so a second reject is a
 * conflict (docs/contract.md, "States and repeats") and a reject that succeeds took effect now.
 */
export interface RecommendationRejected extends RecommendationMutation {
  readonly idempotent: false
}

/** Approve also answers the outbox row, so that the caller may deliver it at once. */
export interface ApproveResult extends RecommendationMutation {
  readonly writeBack: WriteBack | null
}

export interface RecommendationDetail {
  readonly recommendation: Recommendation
  /** The outbox row of its approval; null until approved. */
  readonly writeBack: WriteBack | null
}

export class Recommendations extends Context.Service<
  Recommendations,
  {
    readonly list: (
      workspaceId: WorkspaceId,
      filter: RecommendationFilter,
      page: PageRequest
    ) => Effect.Effect<Page<Recommendation>, RepositoryError>
    readonly get: (
      workspaceId: WorkspaceId,
      id: RecommendationId
    ) => Effect.Effect<Recommendation, ResourceNotFound | RepositoryError>
    /** The recommendation and, once approved, where its write-back to the store stands. */
    readonly getDetail: (
      workspaceId: WorkspaceId,
      id: RecommendationId
    ) => Effect.Effect<RecommendationDetail, ResourceNotFound | RepositoryError>
    readonly accept: (
      workspaceId: WorkspaceId,
      id: RecommendationId,
      actor: Actor
    ) => Effect.Effect<RecommendationMutation, CommandError>
    readonly dismiss: (
      workspaceId: WorkspaceId,
      id: RecommendationId,
      actor: Actor
    ) => Effect.Effect<RecommendationMutation, CommandError>
    /**
     * Gated by the actor's role (`role`: theirs in the workspace, null when no longer a member),
     * then by plan and store (the contract's order: role, plan / integration, resource, state;
     * docs/contract.md). One transaction: pending_approval -> approved, the outbox row keyed by
     * the recommendation id, the audit event.
     */
    readonly approve: (
      workspaceId: WorkspaceId,
      id: RecommendationId,
      actor: Actor,
      role: Role | null
    ) => Effect.Effect<ApproveResult, ForbiddenRole | TierIneligible | NoCommerceIntegration | CommandError>
    /** Gated by the actor's role first, as approve. */
    readonly reject: (
      workspaceId: WorkspaceId,
      id: RecommendationId,
      actor: Actor,
      role: Role | null,
      reason: string
    ) => Effect.Effect<RecommendationRejected, ForbiddenRole | CommandError>
  }
>()("margin/core/Recommendations") {
  static readonly layer = Layer.effect(
    Recommendations,
    Effect.gen(function* () {
      const recommendations = yield* RecommendationRepository
      const workspaces = yield* WorkspaceRepository
      const stores = yield* StoreConnectionRepository
      const catalog = yield* CatalogRepository
      const outbox = yield* WriteBackOutbox
      const ids = yield* IdGenerator
      const transactor = yield* Transactor
      const trail = yield* AuditTrail

      /** Load, decide, save and audit; the caller wraps it in the transaction. */
      const decide = (
        workspaceId: WorkspaceId,
        id: RecommendationId,
        command: Machine.RecommendationCommand,
        actor: Actor,
        now: number
      ): Effect.Effect<Settled<Recommendation>, CommandError> =>
        Effect.flatMap(
          recommendations.update(workspaceId, id, (current) => Machine.decide(current, command, now)),
          (found) =>
            trail.transition(
              {
                workspaceId,
                actor: actorLabel(actor),
                action: `recommendation.${Machine.commandName(command)}`,
                resourceType: "recommendation",
                resourceId: id,
                at: now
              },
              found
            )
        )

      const mutate = (
        workspaceId: WorkspaceId,
        id: RecommendationId,
        command: Machine.RecommendationCommand,
        actor: Actor
      ): Effect.Effect<RecommendationMutation, CommandError> =>
        Effect.clockWith((clock) =>
          transactor.transaction(decide(workspaceId, id, command, actor, clock.currentTimeMillisUnsafe())).pipe(
            Effect.map((settled) => {
              const { value, idempotent } = settledValue(settled)
              return { recommendation: value, idempotent }
            })
          )
        )

      /** The outbox row of an approval: move the store's variant from the price seen to the one approved. */
      const writeBackFor = Effect.fnUntraced(function* (recommendation: Recommendation, now: number) {
        const item = Option.getOrNull(yield* catalog.get(recommendation.workspaceId, recommendation.itemId))
        const writeBack: WriteBack = {
          id: WriteBackId.make(yield* ids.next("writeBack")),
          workspaceId: recommendation.workspaceId,
          recommendationId: recommendation.id,
          idempotencyKey: recommendation.id,
          payload: {
            itemId: recommendation.itemId,
            sku: recommendation.sku,
            storeProductRef: item?.storeProductRef ?? null,
            storeVariantRef: item?.storeVariantRef ?? null,
            currency: recommendation.currency,
            oldPrice: recommendation.currentPrice,
            newPrice: recommendation.recommendedPrice
          },
          status: "pending",
          attempts: 0,
          nextAttemptAt: now,
          lastError: null,
          appliedAt: null,
          createdAt: now
        }
        return writeBack
      })

      /** The approval's transaction: the transition and its write-back in the outbox, or the repeat's. */
      const approveAndEnqueue = Effect.fnUntraced(function* (
        workspaceId: WorkspaceId,
        id: RecommendationId,
        actor: Actor,
        now: number
      ) {
        const settled = yield* decide(workspaceId, id, Machine.approve(actorLabel(actor)), actor, now)
        if (settled._tag === "IdempotentRepeat") {
          const existing = yield* outbox.getByRecommendation(workspaceId, id)
          return { recommendation: settled.current, idempotent: true, writeBack: Option.getOrNull(existing) }
        }
        const writeBack = yield* writeBackFor(settled.after, now)
        yield* outbox.enqueue(writeBack)
        return { recommendation: settled.after, idempotent: false, writeBack }
      })

      const approve = Effect.fn("Recommendations.approve")(function* (
        workspaceId: WorkspaceId,
        id: RecommendationId,
        actor: Actor,
        role: Role | null
      ) {
        if (!mayDecide(role)) return yield* new ForbiddenRole({ role })
        const workspace = yield* workspaces.get(workspaceId)
        if (Option.isNone(workspace)) return yield* new ResourceNotFound({ resource: "workspace", id: workspaceId })
        if (!planLimits[workspace.value.plan].writeBack)
          return yield* new TierIneligible({ plan: workspace.value.plan })
        if (!isConnected(Option.getOrNull(yield* stores.get(workspaceId)))) return yield* new NoCommerceIntegration()
        const now = yield* Clock.currentTimeMillis
        return yield* transactor.transaction(approveAndEnqueue(workspaceId, id, actor, now))
      })

      return Recommendations.of({
        list: Effect.fn("Recommendations.list")(function* (workspaceId, filter, page) {
          return yield* recommendations.list(workspaceId, filter, page)
        }),
        get: Effect.fn("Recommendations.get")(function* (workspaceId, id) {
          const found = yield* recommendations.get(workspaceId, id)
          if (Option.isNone(found)) return yield* new ResourceNotFound({ resource: "recommendation", id })
          return found.value
        }),
        getDetail: Effect.fn("Recommendations.getDetail")(function* (workspaceId, id) {
          const found = yield* recommendations.get(workspaceId, id)
          if (Option.isNone(found)) return yield* new ResourceNotFound({ resource: "recommendation", id })
          const writeBack = yield* outbox.getByRecommendation(workspaceId, id)
          return { recommendation: found.value, writeBack: Option.getOrNull(writeBack) }
        }),
        accept: Effect.fn("Recommendations.accept")(function* (workspaceId, id, actor) {
          return yield* mutate(workspaceId, id, Machine.accept(actorLabel(actor)), actor)
        }),
        dismiss: Effect.fn("Recommendations.dismiss")(function* (workspaceId, id, actor) {
          return yield* mutate(workspaceId, id, Machine.dismiss(actorLabel(actor)), actor)
        }),
        approve,
        reject: Effect.fn("Recommendations.reject")(function* (workspaceId, id, actor, role, reason) {
          if (!mayDecide(role)) return yield* new ForbiddenRole({ role })
          const { recommendation } = yield* mutate(workspaceId, id, Machine.reject(actorLabel(actor), reason), actor)
          return { recommendation, idempotent: false } satisfies RecommendationRejected
        })
      })
    })
  ).pipe(Layer.provide(AuditTrail.layer))
}
