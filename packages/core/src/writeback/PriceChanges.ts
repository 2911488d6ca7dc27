import { Clock, Context, Duration, Effect, Layer, Option } from "effect"
import { type Actor, actorLabel } from "../access/Actor.ts"
import { deciderRole, mayDecide, type Role } from "../access/Role.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { CatalogRepository } from "../catalog/CatalogRepository.ts"
import {
  ForbiddenRole,
  NoCommerceIntegration,
  type RepositoryError,
  ResourceNotFound,
  TierIneligible,
  TransitionConflict
} from "../kernel/Errors.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { type RecommendationId, type WorkspaceId, WriteBackId } from "../kernel/Ids.ts"
import { formatMoney } from "../kernel/Money.ts"
import type { Page, PageRequest } from "../kernel/Page.ts"
import { Transactor } from "../kernel/Transactor.ts"
import { deliverNow, type WriteBackState } from "../recommendations/Approval.ts"
import type { Recommendation } from "../recommendations/Recommendation.ts"
import { RecommendationRepository } from "../recommendations/RecommendationRepository.ts"
import { isConnected } from "../stores/StoreConnection.ts"
import { StoreConnectionRepository } from "../stores/StoreConnectionRepository.ts"
import { planLimits } from "../workspaces/Plan.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import type { WriteBack } from "./WriteBack.ts"
import { WriteBackDelivery } from "./WriteBackDelivery.ts"
import { WriteBackOutbox } from "./WriteBackOutbox.ts"

/** Who may undo an applied price change: those who may approve one (approver, admin, owner). */
export const undoerRole: Role = deciderRole

/** A price change the workspace approved: its write-back, the decision behind it, and its undo if any. */
export interface PriceChange {
  /** The approval's write-back: before (`payload.oldPrice`) -> after (`payload.newPrice`) and its result. */
  readonly writeBack: WriteBack
  /** Who decided (`decidedBy`) and when (`decidedAt`). */
  readonly recommendation: Recommendation
  /** The write-back that moves the price back, once someone asked for it. */
  readonly undo: WriteBack | null
}

export interface PriceChangeUndone {
  readonly change: PriceChange
  /** Where the undo's write-back stands when the answer is given (as an approval's). */
  readonly writeBack: WriteBackState
}

export type UndoError =
  | ForbiddenRole
  | TierIneligible
  | NoCommerceIntegration
  | ResourceNotFound
  | TransitionConflict
  | RepositoryError

/**
 * The workspace's applied price changes and their undo. An undo is a new write-back of the same
 * recommendation from the applied price back to the one it replaced, through the outbox exactly as an
 * approval's (enqueued in the transaction that audits it, then one delivery attempt; the workers
 * retry). It is refused, with the reason, when the change is not applied, was undone already, or
 * the item's price moved since (the store adapter checks the store's price again before writing).
 */
export class PriceChanges extends Context.Service<
  PriceChanges,
  {
    /** The approvals' price changes, newest first, with who decided and any undo. */
    readonly list: (workspaceId: WorkspaceId, page: PageRequest) => Effect.Effect<Page<PriceChange>, RepositoryError>
    /** The price change of one recommendation (404 until it was approved). */
    readonly get: (
      workspaceId: WorkspaceId,
      recommendationId: RecommendationId
    ) => Effect.Effect<PriceChange, ResourceNotFound | RepositoryError>
    /**
     * Gated as approve: role (approver or above), plan, connected store; then the change must be
     * applied, not undone yet, and the item still at the applied price.
     */
    readonly undo: (
      workspaceId: WorkspaceId,
      recommendationId: RecommendationId,
      actor: Actor,
      role: Role | null
    ) => Effect.Effect<PriceChangeUndone, UndoError>
  }
>()("margin/core/PriceChanges") {
  static readonly layerWith = (options: { readonly deliveryTimeout: Duration.Input }) =>
    Layer.effect(
      PriceChanges,
      Effect.gen(function* () {
        const outbox = yield* WriteBackOutbox
        const recommendations = yield* RecommendationRepository
        const workspaces = yield* WorkspaceRepository
        const stores = yield* StoreConnectionRepository
        const catalog = yield* CatalogRepository
        const delivery = yield* WriteBackDelivery
        const ids = yield* IdGenerator
        const transactor = yield* Transactor
        const trail = yield* AuditTrail

        const changeOf = Effect.fnUntraced(function* (writeBack: WriteBack) {
          const recommendation = yield* recommendations.get(writeBack.workspaceId, writeBack.recommendationId)
          if (Option.isNone(recommendation)) {
            return yield* new ResourceNotFound({ resource: "recommendation", id: writeBack.recommendationId })
          }
          const undo = yield* outbox.getUndoOf(writeBack.workspaceId, writeBack.id)
          return { writeBack, recommendation: recommendation.value, undo: Option.getOrNull(undo) } satisfies PriceChange
        })

        const get = Effect.fn("PriceChanges.get")(function* (
          workspaceId: WorkspaceId,
          recommendationId: RecommendationId
        ) {
          const found = yield* outbox.getByRecommendation(workspaceId, recommendationId)
          if (Option.isNone(found)) {
            return yield* new ResourceNotFound({ resource: "price change of recommendation", id: recommendationId })
          }
          return yield* changeOf(found.value)
        })

        /** The undo's transaction: the checks on the change as it is now, the outbox row, the audit event. */
        const enqueueUndo = Effect.fnUntraced(function* (
          workspaceId: WorkspaceId,
          recommendationId: RecommendationId,
          actor: Actor,
          now: number
        ) {
          const refuse = (status: string, reason: string) =>
            new TransitionConflict({ resource: "price_change", id: recommendationId, status, reason })
          const approval = yield* outbox.getByRecommendation(workspaceId, recommendationId)
          if (Option.isNone(approval)) {
            // A recommendation never approved wrote nothing: a conflict of its state, not a missing resource.
            const recommendation = yield* recommendations.get(workspaceId, recommendationId)
            if (Option.isNone(recommendation)) {
              return yield* new ResourceNotFound({ resource: "recommendation", id: recommendationId })
            }
            return yield* refuse(
              recommendation.value.status,
              `it is ${recommendation.value.status.replaceAll("_", " ")} and was never written back: only an applied price change can be undone`
            )
          }
          const change = yield* changeOf(approval.value)
          const { writeBack } = change
          if (change.undo !== null) {
            return yield* refuse(
              "undone",
              change.undo.status === "failed"
                ? `its undo was already tried and failed (${change.undo.lastError ?? "no reason given"}); a change is undone at most once`
                : "it was already undone"
            )
          }
          if (writeBack.status !== "applied") {
            return yield* refuse(
              writeBack.status,
              `its write-back is ${writeBack.status.replaceAll("_", " ")}: only an applied price change can be undone`
            )
          }
          const { currency, newPrice, oldPrice } = writeBack.payload
          const item = yield* catalog.get(workspaceId, writeBack.payload.itemId)
          const price = Option.isSome(item) ? item.value.price : null
          if (price !== newPrice) {
            return yield* refuse(
              "price_moved",
              price === null
                ? "the item's price is no longer known, so it may have moved since; undoing could overwrite a newer price"
                : `the price moved since: it is ${formatMoney(price, currency)} now, not the ${formatMoney(newPrice, currency)} applied; undoing would overwrite that change`
            )
          }
          const undo: WriteBack = {
            id: WriteBackId.make(yield* ids.next("writeBack")),
            workspaceId,
            recommendationId,
            idempotencyKey: `${writeBack.idempotencyKey}:undo`,
            payload: { ...writeBack.payload, oldPrice: newPrice, newPrice: oldPrice },
            status: "pending",
            attempts: 0,
            nextAttemptAt: now,
            lastError: null,
            appliedAt: null,
            createdAt: now,
            undo: { of: writeBack.id, by: actorLabel(actor) }
          }
          yield* outbox.enqueue(undo)
          // A concurrent undo may have enqueued first: then that one stands, and this one is a repeat.
          const stored = yield* outbox.getUndoOf(workspaceId, writeBack.id)
          if (Option.isNone(stored) || stored.value.id !== undo.id)
            return yield* refuse("undone", "it was already undone")
          yield* trail.record({
            workspaceId,
            actor: actorLabel(actor),
            action: "write_back.undo",
            resourceType: "write_back",
            resourceId: writeBack.id,
            beforeStatus: "applied",
            afterStatus: "undo_pending",
            at: now
          })
          return undo
        })

        const undo = Effect.fn("PriceChanges.undo")(function* (
          workspaceId: WorkspaceId,
          recommendationId: RecommendationId,
          actor: Actor,
          role: Role | null
        ) {
          if (!mayDecide(role)) return yield* new ForbiddenRole({ role })
          const workspace = yield* workspaces.get(workspaceId)
          if (Option.isNone(workspace)) return yield* new ResourceNotFound({ resource: "workspace", id: workspaceId })
          if (!planLimits[workspace.value.plan].writeBack) {
            return yield* new TierIneligible({ plan: workspace.value.plan })
          }
          if (!isConnected(Option.getOrNull(yield* stores.get(workspaceId)))) return yield* new NoCommerceIntegration()
          const now = yield* Clock.currentTimeMillis
          const queued = yield* transactor.transaction(enqueueUndo(workspaceId, recommendationId, actor, now))
          // One delivery now, as an approval gets; a slow or failing store leaves the row to the workers.
          const state = yield* deliverNow(delivery, queued, options.deliveryTimeout)
          return { change: yield* get(workspaceId, recommendationId), writeBack: state } satisfies PriceChangeUndone
        })

        return PriceChanges.of({
          list: Effect.fn("PriceChanges.list")(function* (workspaceId, page) {
            const approvals = yield* outbox.listApprovals(workspaceId, page)
            const items = yield* Effect.forEach(approvals.items, (writeBack) =>
              changeOf(writeBack).pipe(
                Effect.map(Option.some),
                // A write-back outlives nothing it points to; were its recommendation gone, the row is left out.
                Effect.catchTag("ResourceNotFound", () => Effect.succeed(Option.none<PriceChange>()))
              )
            )
            return { items: items.flatMap(Option.toArray), nextCursor: approvals.nextCursor }
          }),
          get,
          undo
        })
      })
    ).pipe(Layer.provide(AuditTrail.layer))

  static readonly layer = PriceChanges.layerWith({ deliveryTimeout: Duration.seconds(5) })
}
