import { Clock, Context, Effect, Layer, Option, Random } from "effect"
import type { AlertFinding } from "../alerts/AlertFinding.ts"
import * as AlertMachine from "../alerts/AlertMachine.ts"
import { AlertRepository } from "../alerts/AlertRepository.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { CatalogRepository } from "../catalog/CatalogRepository.ts"
import type { RepositoryError } from "../kernel/Errors.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { formatMoney } from "../kernel/Money.ts"
import { Transactor } from "../kernel/Transactor.ts"
import * as Machine from "../recommendations/RecommendationMachine.ts"
import { RecommendationRepository } from "../recommendations/RecommendationRepository.ts"
import { StoreConnectionRepository } from "../stores/StoreConnectionRepository.ts"
import { type RetryBackoff, retryDelay } from "./RetryBackoff.ts"
import { type StoreUnavailable, StoreWriteBack, type StoreWriteResult } from "./StoreWriteBack.ts"
import type { WriteBack } from "./WriteBack.ts"
import { WriteBackOutbox } from "./WriteBackOutbox.ts"

/** What one delivery did with one outbox row. */
export type DeliveryOutcome =
  | "applied"
  | "already_applied"
  | "price_drift"
  | "rejected"
  | "retry_scheduled"
  | "gave_up"
  /** The row was not due, already settled, or held by another worker. */
  | "not_claimed"
  /** Our lease expired and another worker took the row over: it records the result. */
  | "lease_lost"

export interface DeliveryReport {
  readonly writeBack: WriteBack
  readonly outcome: DeliveryOutcome
}

export interface DeliveryConfig extends RetryBackoff {
  /** After this many attempts a store that stays unavailable fails the write-back. */
  readonly maxAttempts: number
  /** How long a claim keeps other workers away from a row. */
  readonly leaseMs: number
}

export const defaultDeliveryConfig: DeliveryConfig = {
  maxAttempts: 8,
  leaseMs: 60_000,
  baseDelayMs: 5_000,
  maxDelayMs: 30 * 60_000
}

/** The label of the write-back in recommendations' decided / audit columns. */
const systemActor = "system:write-back"

/**
 * Delivers approved prices to the store (docs/contract.md, "Approve and the write-back", step 2):
 * claim -> deliver -> record the result. The store adapter makes a repeat harmless, so a crash
 * between delivering and recording only costs a second delivery that answers AlreadyApplied.
 */
export class WriteBackDelivery extends Context.Service<
  WriteBackDelivery,
  {
    /** Delivers one row now if it is due and unclaimed (the approve request, opportunistically). */
    readonly deliverOne: (writeBack: WriteBack) => Effect.Effect<DeliveryReport, RepositoryError>
    /** Claims up to `limit` due rows for `owner` and delivers them one after the other. */
    readonly deliverDue: (owner: string, limit: number) => Effect.Effect<ReadonlyArray<DeliveryReport>, RepositoryError>
  }
>()("margin/core/WriteBackDelivery") {
  static readonly layerWith = (overrides: Partial<DeliveryConfig>) =>
    Layer.effect(
      WriteBackDelivery,
      Effect.gen(function* () {
        const config: DeliveryConfig = { ...defaultDeliveryConfig, ...overrides }
        const outbox = yield* WriteBackOutbox
        const stores = yield* StoreConnectionRepository
        const store = yield* StoreWriteBack
        const recommendations = yield* RecommendationRepository
        const catalog = yield* CatalogRepository
        const alerts = yield* AlertRepository
        const ids = yield* IdGenerator
        const transactor = yield* Transactor
        const trail = yield* AuditTrail

        /**
         * Moves the recommendation after the write-back; anything but a transition is only logged. An
         * undo's write-back leaves it as it is (applied: its price change happened, then was undone).
         */
        const settleRecommendation = Effect.fnUntraced(function* (
          writeBack: WriteBack,
          command: Machine.RecommendationCommand,
          now: number
        ) {
          if (writeBack.undo !== undefined) return
          const found = yield* recommendations.update(writeBack.workspaceId, writeBack.recommendationId, (current) =>
            Machine.decide(current, command, now)
          )
          const outcome = Option.getOrNull(found)
          if (outcome?._tag === "Transitioned") {
            yield* trail.record({
              workspaceId: writeBack.workspaceId,
              actor: systemActor,
              action: `recommendation.${Machine.commandName(command)}`,
              resourceType: "recommendation",
              resourceId: writeBack.recommendationId,
              beforeStatus: outcome.before.status,
              afterStatus: outcome.after.status,
              at: now
            })
          } else if (outcome?._tag !== "IdempotentRepeat") {
            // The outbox row is the record of the store write: it is settled even if the recommendation cannot follow.
            yield* Effect.logWarning("write-back settled but its recommendation did not follow", {
              writeBackId: writeBack.id,
              recommendationId: writeBack.recommendationId,
              reason: outcome === null ? "not found" : outcome.reason
            })
          }
        })

        const applied = (writeBack: WriteBack, owner: string, outcome: DeliveryOutcome, now: number) =>
          transactor.transaction(
            Effect.gen(function* () {
              if (!(yield* outbox.markApplied(writeBack.id, owner, now))) return "lease_lost" as const
              yield* settleRecommendation(writeBack, Machine.writeBackApplied, now)
              yield* catalog.setPrice(writeBack.workspaceId, writeBack.payload.itemId, writeBack.payload.newPrice, now)
              return outcome
            })
          )

        const failed = (
          writeBack: WriteBack,
          owner: string,
          outcome: DeliveryOutcome,
          finding: AlertFinding,
          now: number
        ) =>
          transactor.transaction(
            Effect.gen(function* () {
              if (!(yield* outbox.markFailed(writeBack.id, owner, finding.message, now))) return "lease_lost" as const
              yield* settleRecommendation(writeBack, Machine.writeBackFailed, now)
              const origin = { workspaceId: writeBack.workspaceId, runId: null, itemId: writeBack.payload.itemId }
              yield* alerts.raiseMany([AlertMachine.raise(yield* ids.next("alert"), origin, finding, now)])
              return outcome
            })
          )

        const retryLater = (writeBack: WriteBack, owner: string, message: string, now: number) =>
          transactor.transaction(
            Effect.gen(function* () {
              const jitter = yield* Random.next
              const nextAttemptAt = now + retryDelay(config, writeBack.attempts, jitter)
              if (!(yield* outbox.scheduleRetry(writeBack.id, owner, nextAttemptAt, message)))
                return "lease_lost" as const
              yield* trail.record({
                workspaceId: writeBack.workspaceId,
                actor: systemActor,
                action: "write_back.retry",
                resourceType: "write_back",
                resourceId: writeBack.id,
                beforeStatus: "in_flight",
                afterStatus: "pending",
                at: now
              })
              return "retry_scheduled" as const
            })
          )

        /** Delivers a row this worker has claimed (its `attempts` already counts this attempt). */
        const deliverClaimed = Effect.fnUntraced(function* (writeBack: WriteBack, owner: string) {
          const connection = Option.filter(yield* stores.get(writeBack.workspaceId), (c) => c.status === "connected")
          // A disconnected store is refused, not waited for (docs/stores.md): retrying would write
          // an approval's price into a store the merchant took away, whenever it came back.
          const result: StoreWriteResult | StoreUnavailable = Option.isNone(connection)
            ? { _tag: "Rejected", message: "the workspace's store is not connected" }
            : yield* store
                .deliver(connection.value, writeBack)
                .pipe(Effect.catchTag("StoreUnavailable", Effect.succeed))
          const now = yield* Clock.currentTimeMillis
          const { currency, newPrice, oldPrice, sku } = writeBack.payload
          const target = `${sku} from ${formatMoney(oldPrice, currency)} to ${formatMoney(newPrice, currency)}`
          switch (result._tag) {
            case "Applied":
              return yield* applied(writeBack, owner, "applied", now)
            case "AlreadyApplied":
              return yield* applied(writeBack, owner, "already_applied", now)
            case "PriceDrift":
              return yield* failed(
                writeBack,
                owner,
                "price_drift",
                {
                  kind: "price_drift",
                  severity: "warning",
                  message: `Write-back of ${target} not done: the store price is ${formatMoney(result.observedPrice, currency)}, changed since the recommendation.`
                },
                now
              )
            case "Rejected":
              return yield* failed(
                writeBack,
                owner,
                "rejected",
                {
                  kind: "write_back_failed",
                  severity: "critical",
                  message: `Write-back of ${target} was refused by the store: ${result.message}`
                },
                now
              )
            case "StoreUnavailable":
              if (writeBack.attempts < config.maxAttempts)
                return yield* retryLater(writeBack, owner, result.message, now)
              return yield* failed(
                writeBack,
                owner,
                "gave_up",
                {
                  kind: "write_back_failed",
                  severity: "critical",
                  message: `Write-back of ${target} gave up after ${writeBack.attempts} attempts: ${result.message}`
                },
                now
              )
          }
        })

        // One span per delivery, named as in the logs' fields, so that a trace shows each row's attempt.
        const report = (writeBack: WriteBack, owner: string) =>
          deliverClaimed(writeBack, owner).pipe(
            Effect.tap((outcome) => Effect.annotateCurrentSpan("outcome", outcome)),
            Effect.map((outcome): DeliveryReport => ({ writeBack, outcome })),
            Effect.withSpan("WriteBackDelivery.deliver", {
              attributes: {
                writeBack: writeBack.id,
                workspace: writeBack.workspaceId,
                recommendation: writeBack.recommendationId,
                attempt: writeBack.attempts
              }
            })
          )

        return WriteBackDelivery.of({
          deliverOne: Effect.fn("WriteBackDelivery.deliverOne")(function* (writeBack) {
            const now = yield* Clock.currentTimeMillis
            // A fresh owner per call: two requests delivering the same row must not share a lease.
            const owner = `request:${writeBack.id}:${now}:${yield* Random.nextInt}`
            const claimed = yield* outbox.claim(writeBack.id, owner, now, now + config.leaseMs)
            if (Option.isNone(claimed)) return { writeBack, outcome: "not_claimed" as const }
            return yield* report(claimed.value, owner)
          }),
          // Untraced: the workers poll every few hundred milliseconds; each row claimed gets its own span.
          deliverDue: Effect.fnUntraced(function* (owner, limit) {
            const now = yield* Clock.currentTimeMillis
            const claimed = yield* outbox.claimDue(owner, now, now + config.leaseMs, limit)
            return yield* Effect.forEach(claimed, (writeBack) => report(writeBack, owner))
          })
        })
      })
    ).pipe(Layer.provide(AuditTrail.layer))

  static readonly layer = WriteBackDelivery.layerWith({})
}
