import { Clock, Context, Effect, Layer, Option } from "effect"
import type { Actor } from "../access/Actor.ts"
import { NoCommerceIntegration, type RepositoryError, ResourceNotFound } from "../kernel/Errors.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { StoreSyncId, type WorkspaceId } from "../kernel/Ids.ts"
import { Runs } from "../runs/Runs.ts"
import { StoreConnectionRepository } from "./StoreConnectionRepository.ts"
import { queuedSyncJob, type StoreSyncJob } from "./StoreSyncJob.ts"
import { StoreSyncJobRepository } from "./StoreSyncJobRepository.ts"
import { StoreSyncs } from "./StoreSyncs.ts"

export interface StoreSyncJobOptions {
  /** How long a worker holds a sync before another may take it over (its worker presumed dead). */
  readonly leaseMs: number
  /** Workers that may take one sync before it is failed: a sync that kills its worker stops here. */
  readonly maxAttempts: number
}

export const defaultStoreSyncJobOptions: StoreSyncJobOptions = { leaseMs: 10 * 60 * 1000, maxAttempts: 3 }

/** Who queues the run after a scheduled sync (and the sync itself, in the audit trail). */
export const scheduleActor: Actor = { _tag: "SystemActor", name: "schedule" }

/** What a failed sync says it failed of, for the merchant. */
const failureMessage = (failure: { readonly _tag: string; readonly message?: string }): string =>
  failure._tag === "NoCommerceIntegration"
    ? "no store is connected to the workspace"
    : failure._tag === "StoreReadFailed"
      ? `the store could not be read: ${failure.message ?? "unavailable"}`
      : (failure.message ?? failure._tag)

/**
 * Syncs of a workspace's store as things that are asked for and then done (docs/stores.md, "Syncs on
 * demand and on schedule"): `request` queues one (REST, MCP, the console), the schedule queues its
 * slots (SyncSchedules.queueDue), and a worker's `executeNext` takes the oldest, applies it with
 * StoreSyncs and, when it asks for one, queues a run with trigger `schedule`.
 *
 * A worker that dies with a sync leaves it `running` under a lease; when the lease runs out another
 * worker takes it and syncs again, which finishes the read the first one left (StoreSyncs resumes
 * it), and the run after it is queued under an idempotency key of the sync, so a sync queues at most
 * one run however often it is taken.
 */
export class StoreSyncJobs extends Context.Service<
  StoreSyncJobs,
  {
    /** Queues a sync, or answers the one already queued or running: one at a time per workspace. */
    readonly request: (
      workspaceId: WorkspaceId,
      actor: Actor
    ) => Effect.Effect<StoreSyncJob, NoCommerceIntegration | RepositoryError>
    readonly get: (
      workspaceId: WorkspaceId,
      id: StoreSyncId
    ) => Effect.Effect<StoreSyncJob, ResourceNotFound | RepositoryError>
    /** The workspace's newest sync. */
    readonly latest: (workspaceId: WorkspaceId) => Effect.Effect<Option.Option<StoreSyncJob>, RepositoryError>
    /** Takes the next sync due and does it, as `owner`; None when there was none. */
    readonly executeNext: (owner: string) => Effect.Effect<Option.Option<StoreSyncJob>, RepositoryError>
  }
>()("margin/core/StoreSyncJobs") {
  static readonly layerWith = ({ leaseMs, maxAttempts }: StoreSyncJobOptions) =>
    Layer.effect(
      StoreSyncJobs,
      Effect.gen(function* () {
        const jobs = yield* StoreSyncJobRepository
        const connections = yield* StoreConnectionRepository
        const syncs = yield* StoreSyncs
        const runs = yield* Runs
        const ids = yield* IdGenerator

        const request = Effect.fn("StoreSyncJobs.request")(function* (workspaceId: WorkspaceId, actor: Actor) {
          const connection = yield* connections.get(workspaceId)
          if (Option.isNone(connection) || connection.value.status !== "connected") {
            return yield* new NoCommerceIntegration()
          }
          const active = yield* jobs.active(workspaceId)
          if (Option.isSome(active)) return active.value
          const job = queuedSyncJob({
            id: StoreSyncId.make(yield* ids.next("storeSync")),
            workspaceId,
            trigger: "manual",
            slotAt: null,
            runAfterSync: false,
            actor,
            createdAt: yield* Clock.currentTimeMillis
          })
          yield* jobs.insert(job)
          return job
        })

        /** The run after a sync: its key is the sync's, so a sync taken twice queues one run. */
        const runAfter = (job: StoreSyncJob) =>
          runs.trigger(job.workspaceId, [], "schedule", scheduleActor, { idempotencyKey: `store-sync:${job.id}` }).pipe(
            Effect.map((run) => ({ runId: run.id, runRefused: null })),
            // A refusal is the run's answer, kept on the sync; the database failing is retried.
            Effect.catchIf(
              (refused) => refused._tag !== "RepositoryError",
              (refused) =>
                Effect.succeed({
                  runId: null,
                  runRefused:
                    refused._tag === "PlanLimitExceeded"
                      ? `plan limit ${refused.limit}: ${refused.used} of ${refused.allowed}`
                      : refused._tag === "EmailNotConfirmed"
                        ? "e-mail not confirmed"
                        : refused._tag === "ResourceNotFound"
                          ? "the workspace is gone"
                          : refused._tag
                })
            )
          )

        const execute = Effect.fnUntraced(function* (job: StoreSyncJob, owner: string) {
          if (job.attempts > maxAttempts) {
            const finishedAt = yield* Clock.currentTimeMillis
            const failed: StoreSyncJob = {
              ...job,
              status: "failed",
              finishedAt,
              error: `gave up after ${maxAttempts} attempts: the workers taking it stopped before it ended`
            }
            yield* jobs.finish(failed, owner)
            return failed
          }
          const synced = yield* syncs
            .sync({ workspaceId: job.workspaceId, trigger: job.trigger, actor: job.actor })
            .pipe(Effect.result)
          if (synced._tag === "Failure") {
            const failure = synced.failure
            // The database failing is not the sync's fault: the claim runs out and another worker tries.
            if (failure._tag === "RepositoryError") return yield* failure
            const failed: StoreSyncJob = {
              ...job,
              status: "failed",
              finishedAt: yield* Clock.currentTimeMillis,
              error: failureMessage(failure)
            }
            yield* jobs.finish(failed, owner)
            return failed
          }
          const run = job.runAfterSync ? yield* runAfter(job) : { runId: null, runRefused: null }
          const succeeded: StoreSyncJob = {
            ...job,
            status: "succeeded",
            finishedAt: yield* Clock.currentTimeMillis,
            report: synced.success,
            ...run
          }
          yield* jobs.finish(succeeded, owner)
          return succeeded
        })

        return StoreSyncJobs.of({
          request,
          get: Effect.fn("StoreSyncJobs.get")(function* (workspaceId, id) {
            const found = yield* jobs.get(workspaceId, id)
            if (Option.isNone(found)) return yield* new ResourceNotFound({ resource: "store_sync", id })
            return found.value
          }),
          latest: (workspaceId) => jobs.latest(workspaceId),
          executeNext: Effect.fn("StoreSyncJobs.executeNext")(function* (owner: string) {
            const now = yield* Clock.currentTimeMillis
            const claimed = yield* jobs.claim(owner, now, leaseMs)
            if (Option.isNone(claimed)) return Option.none()
            return Option.some(yield* execute(claimed.value, owner))
          })
        })
      })
    )

  static readonly layer = StoreSyncJobs.layerWith(defaultStoreSyncJobOptions)
}
