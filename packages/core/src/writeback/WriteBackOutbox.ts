import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { RecommendationId, WorkspaceId, WriteBackId } from "../kernel/Ids.ts"
import type { Page, PageRequest } from "../kernel/Page.ts"
import type { WriteBack } from "./WriteBack.ts"

export class WriteBackOutbox extends Context.Service<
  WriteBackOutbox,
  {
    /**
     * One approval row per recommendation, and at most one undo row per write-back: a second enqueue
     * of either is a no-op.
     */
    readonly enqueue: (writeBack: WriteBack) => Effect.Effect<void, RepositoryError>
    /** The row of the recommendation's approval (never an undo row). */
    readonly getByRecommendation: (
      workspaceId: WorkspaceId,
      recommendationId: RecommendationId
    ) => Effect.Effect<Option.Option<WriteBack>, RepositoryError>
    /** The undo row of the write-back `id`, if one was enqueued. */
    readonly getUndoOf: (
      workspaceId: WorkspaceId,
      id: WriteBackId
    ) => Effect.Effect<Option.Option<WriteBack>, RepositoryError>
    /** The approvals' rows of the workspace (no undo row), newest first: the price changes it asked for. */
    readonly listApprovals: (
      workspaceId: WorkspaceId,
      page: PageRequest
    ) => Effect.Effect<Page<WriteBack>, RepositoryError>
    /**
     * Claims up to `limit` due rows (pending and due, or in flight with an expired lease) for `owner`
     * until `leaseUntil`, counting the attempt. Concurrent claimers never get the same row.
     */
    readonly claimDue: (
      owner: string,
      now: number,
      leaseUntil: number,
      limit: number
    ) => Effect.Effect<ReadonlyArray<WriteBack>, RepositoryError>
    /** Claims one row if it is due (the approve request delivers opportunistically). */
    readonly claim: (
      id: WriteBackId,
      owner: string,
      now: number,
      leaseUntil: number
    ) => Effect.Effect<Option.Option<WriteBack>, RepositoryError>
    readonly markApplied: (id: WriteBackId, owner: string, now: number) => Effect.Effect<boolean, RepositoryError>
    readonly scheduleRetry: (
      id: WriteBackId,
      owner: string,
      nextAttemptAt: number,
      error: string
    ) => Effect.Effect<boolean, RepositoryError>
    readonly markFailed: (
      id: WriteBackId,
      owner: string,
      error: string,
      now: number
    ) => Effect.Effect<boolean, RepositoryError>
    /**
     * Ends a pending row for good, as failed with `error`, when it is still pending (a compare-and-swap:
     * a row a worker has claimed meanwhile, in flight, is left alone). Answers whether it did.
     */
    readonly cancelPending: (
      workspaceId: WorkspaceId,
      id: WriteBackId,
      error: string
    ) => Effect.Effect<boolean, RepositoryError>
    /** Rows not yet applied or failed, and the age of the oldest (metrics). */
    readonly depth: (
      now: number
    ) => Effect.Effect<{ readonly count: number; readonly oldestAgeMs: number | null }, RepositoryError>
  }
>()("margin/core/WriteBackOutbox") {}
