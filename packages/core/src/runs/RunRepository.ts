import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { RunId, WorkspaceId } from "../kernel/Ids.ts"
import type { Outcome } from "../kernel/Outcome.ts"
import type { Page, PageRequest } from "../kernel/Page.ts"
import type { Run, RunStatus } from "./Run.ts"

export interface RunProgress {
  readonly itemsTotal: number
  readonly itemsAnalysed: number
  readonly recommendationsCount: number
  readonly alertsCount: number
}

export class RunRepository extends Context.Service<
  RunRepository,
  {
    readonly insert: (run: Run) => Effect.Effect<void, RepositoryError>
    readonly get: (workspaceId: WorkspaceId, id: RunId) => Effect.Effect<Option.Option<Run>, RepositoryError>
    /** A run by id whatever its workspace: for operators (marginctl), never for a caller of a workspace. */
    readonly find: (id: RunId) => Effect.Effect<Option.Option<Run>, RepositoryError>
    readonly list: (
      workspaceId: WorkspaceId,
      filter: { readonly status: RunStatus | null },
      page: PageRequest
    ) => Effect.Effect<Page<Run>, RepositoryError>
    /** Load, decide, save with a compare-and-swap on `version`; None when there is no such run. */
    readonly update: (
      workspaceId: WorkspaceId,
      id: RunId,
      decide: (current: Run) => Outcome<Run>
    ) => Effect.Effect<Option.Option<Outcome<Run>>, RepositoryError>
    /**
     * Writes the counters of a running run; a run that has finished (or not started) keeps its
     * own, so a worker that lost its lease cannot overwrite the counts of a completed run.
     */
    readonly recordProgress: (
      workspaceId: WorkspaceId,
      id: RunId,
      progress: RunProgress
    ) => Effect.Effect<void, RepositoryError>
    /** Runs created since `since` (plan cap: runs per month). */
    readonly countCreatedSince: (workspaceId: WorkspaceId, since: number) => Effect.Effect<number, RepositoryError>
    /**
     * Claims the oldest queued run, or a running one whose lease expired (its worker died),
     * for `owner` until `leaseUntil`. Several workers never hold one run at once, and a workspace
     * never has two runs held: a claimed run holds its workspace until it finishes (past its lease
     * too, until another worker takes it over), and its workspace's queued runs wait meanwhile.
     * Two runs of one workspace executing at once would supersede each other's recommendations.
     */
    readonly claimNext: (
      owner: string,
      now: number,
      leaseUntil: number
    ) => Effect.Effect<Option.Option<Run>, RepositoryError>
    /** Extends the lease; false when another worker has taken the run over. */
    readonly heartbeat: (id: RunId, owner: string, leaseUntil: number) => Effect.Effect<boolean, RepositoryError>
  }
>()("margin/core/RunRepository") {}
