import { Clock, Context, Effect, Layer, Option } from "effect"
import { type Actor, actorLabel, actorUserId } from "../access/Actor.ts"
import { UserRepository } from "../access/UserRepository.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { CatalogRepository } from "../catalog/CatalogRepository.ts"
import type { Tag } from "../catalog/Tag.ts"
import {
  EmailNotConfirmed,
  InvalidInput,
  PlanLimitExceeded,
  type RepositoryError,
  ResourceNotFound
} from "../kernel/Errors.ts"
import { IdempotencyKeyRepository, idempotencyWindowMs } from "../kernel/IdempotencyKeyRepository.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { RunId, type WorkspaceId } from "../kernel/Ids.ts"
import type { Page, PageRequest } from "../kernel/Page.ts"
import { type CommandError, settledValue } from "../kernel/Settle.ts"
import { Transactor } from "../kernel/Transactor.ts"
import { planLimits } from "../workspaces/Plan.ts"
import { usagePeriod } from "../workspaces/UsagePeriod.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import type { Run, RunStatus, RunTrigger } from "./Run.ts"
import * as Machine from "./RunMachine.ts"
import { RunRepository } from "./RunRepository.ts"

/** The run after a command, and whether the command had already taken effect. */
export interface RunMutation {
  readonly run: Run
  readonly idempotent: boolean
}

export type TriggerError = ResourceNotFound | EmailNotConfirmed | PlanLimitExceeded | InvalidInput | RepositoryError

export interface TriggerOptions {
  /**
   * The caller's `Idempotency-Key`: the same key with the same tags within 24 hours answers the
   * run the first trigger queued (as it is now) and queues nothing; with other tags it is refused
   * (`InvalidInput` at `Idempotency-Key`). Keys are the workspace's, whichever door sent them.
   */
  readonly idempotencyKey?: string
}

/** What a trigger's key is compared by: its tags, as sent. */
const triggerFingerprint = (subsetTags: ReadonlyArray<Tag>): string => JSON.stringify(subsetTags)

export class Runs extends Context.Service<
  Runs,
  {
    readonly list: (
      workspaceId: WorkspaceId,
      filter: { readonly status: RunStatus | null },
      page: PageRequest
    ) => Effect.Effect<Page<Run>, RepositoryError>
    readonly get: (workspaceId: WorkspaceId, id: RunId) => Effect.Effect<Run, ResourceNotFound | RepositoryError>
    /**
     * Queues a run over the items carrying any of `subsetTags` (all items when empty). Refused when
     * the acting user's e-mail is unconfirmed (a system actor has no e-mail), then by the plan's caps:
     * runs this UTC month, then catalog size.
     */
    readonly trigger: (
      workspaceId: WorkspaceId,
      subsetTags: ReadonlyArray<Tag>,
      trigger: RunTrigger,
      actor: Actor,
      options?: TriggerOptions
    ) => Effect.Effect<Run, TriggerError>
    /** Only a queued run can be cancelled; a repeat is idempotent. */
    readonly cancel: (workspaceId: WorkspaceId, id: RunId, actor: Actor) => Effect.Effect<RunMutation, CommandError>
  }
>()("margin/core/Runs") {
  static readonly layer = Layer.effect(
    Runs,
    Effect.gen(function* () {
      const runs = yield* RunRepository
      const workspaces = yield* WorkspaceRepository
      const users = yield* UserRepository
      const catalog = yield* CatalogRepository
      const ids = yield* IdGenerator
      const transactor = yield* Transactor
      const trail = yield* AuditTrail
      const keys = yield* IdempotencyKeyRepository

      const trigger = Effect.fn("Runs.trigger")(function* (
        workspaceId: WorkspaceId,
        subsetTags: ReadonlyArray<Tag>,
        trigger: RunTrigger,
        actor: Actor,
        options: TriggerOptions = {}
      ) {
        const workspace = yield* workspaces.get(workspaceId)
        if (Option.isNone(workspace)) return yield* new ResourceNotFound({ resource: "workspace", id: workspaceId })
        const userId = actorUserId(actor)
        if (userId !== null) {
          const user = yield* users.get(userId)
          // A user that cannot be found cannot have confirmed anything.
          if (!Option.exists(user, (u) => u.emailConfirmed)) return yield* new EmailNotConfirmed()
        }
        const limits = planLimits[workspace.value.plan]
        const now = yield* Clock.currentTimeMillis
        const id = RunId.make(yield* ids.next("run"))
        // The workspace's usage lock makes the count and the insert one step: concurrent triggers at
        // the cap queue behind each other, and each counts the runs the ones before it inserted.
        return yield* transactor.transaction(
          Effect.gen(function* () {
            yield* workspaces.lockUsage(workspaceId)
            // Under the usage lock: two triggers with one key cannot both miss its record.
            const key = options.idempotencyKey
            const fingerprint = triggerFingerprint(subsetTags)
            if (key !== undefined) {
              const first = yield* keys.find(workspaceId, "triggerRun", key, now - idempotencyWindowMs)
              if (Option.isSome(first)) {
                if (first.value.fingerprint !== fingerprint) {
                  return yield* new InvalidInput({
                    path: "Idempotency-Key",
                    message: "this key was used in the last 24 hours with other subset_tags; send a new key"
                  })
                }
                const queued = yield* runs.get(workspaceId, RunId.make(first.value.resourceId))
                if (Option.isSome(queued)) return queued.value
              }
            }
            if (limits.runsPerMonth !== null) {
              const used = yield* runs.countCreatedSince(workspaceId, usagePeriod(now).start)
              if (used >= limits.runsPerMonth) {
                return yield* new PlanLimitExceeded({ limit: "runs_per_month", allowed: limits.runsPerMonth, used })
              }
            }
            if (limits.catalogItems !== null) {
              const items = yield* catalog.count(workspaceId)
              if (items > limits.catalogItems) {
                return yield* new PlanLimitExceeded({
                  limit: "catalog_items",
                  allowed: limits.catalogItems,
                  used: items
                })
              }
            }
            const run = Machine.queue({ id, workspaceId, subsetTags, trigger, requestedBy: actorLabel(actor) }, now)
            yield* runs.insert(run)
            if (key !== undefined) {
              yield* keys.record({
                workspaceId,
                operation: "triggerRun",
                key,
                fingerprint,
                resourceId: id,
                createdAt: now
              })
            }
            yield* trail.record({
              workspaceId,
              actor: actorLabel(actor),
              action: "run.trigger",
              resourceType: "run",
              resourceId: id,
              beforeStatus: null,
              afterStatus: run.status,
              at: now
            })
            return run
          })
        )
      })

      return Runs.of({
        list: Effect.fn("Runs.list")(function* (workspaceId, filter, page) {
          return yield* runs.list(workspaceId, filter, page)
        }),
        get: Effect.fn("Runs.get")(function* (workspaceId, id) {
          const found = yield* runs.get(workspaceId, id)
          if (Option.isNone(found)) return yield* new ResourceNotFound({ resource: "run", id })
          return found.value
        }),
        trigger,
        cancel: Effect.fn("Runs.cancel")(function* (workspaceId, id, actor) {
          const now = yield* Clock.currentTimeMillis
          const settled = yield* transactor.transaction(
            Effect.flatMap(
              runs.update(workspaceId, id, (current) => Machine.decide(current, Machine.cancel, now)),
              (found) =>
                trail.transition(
                  {
                    workspaceId,
                    actor: actorLabel(actor),
                    action: "run.cancel",
                    resourceType: "run",
                    resourceId: id,
                    at: now
                  },
                  found
                )
            )
          )
          const { value, idempotent } = settledValue(settled)
          return { run: value, idempotent }
        })
      })
    })
  ).pipe(Layer.provide(AuditTrail.layer))
}
