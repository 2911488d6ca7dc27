import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { StoreSyncId, WorkspaceId } from "../kernel/Ids.ts"
import type { StoreSyncJob } from "./StoreSyncJob.ts"

/** The store syncs asked for or due, and the workers' claims on them. */
export class StoreSyncJobRepository extends Context.Service<
  StoreSyncJobRepository,
  {
    /**
     * Adds a queued sync. False, and nothing added, when the workspace already has a sync for the
     * same slot (`slotAt`): of several workers queueing one slot, one succeeds.
     */
    readonly insert: (job: StoreSyncJob) => Effect.Effect<boolean, RepositoryError>
    readonly get: (
      workspaceId: WorkspaceId,
      id: StoreSyncId
    ) => Effect.Effect<Option.Option<StoreSyncJob>, RepositoryError>
    /** The workspace's newest sync, whatever its status. */
    readonly latest: (workspaceId: WorkspaceId) => Effect.Effect<Option.Option<StoreSyncJob>, RepositoryError>
    /** The workspace's queued or running sync, if any. */
    readonly active: (workspaceId: WorkspaceId) => Effect.Effect<Option.Option<StoreSyncJob>, RepositoryError>
    /**
     * Takes the oldest sync that is queued, or running under a lease that has run out (its worker
     * died), for `owner` until `now + leaseMs`: status running, `startedAt` set once, attempts + 1.
     * One claimant at a time (PostgreSQL: FOR UPDATE SKIP LOCKED).
     */
    readonly claim: (
      owner: string,
      now: number,
      leaseMs: number
    ) => Effect.Effect<Option.Option<StoreSyncJob>, RepositoryError>
    /** Writes the ended sync (succeeded or failed) and ends the claim; false when `owner` no longer holds it. */
    readonly finish: (job: StoreSyncJob, owner: string) => Effect.Effect<boolean, RepositoryError>
  }
>()("margin/core/StoreSyncJobRepository") {}
