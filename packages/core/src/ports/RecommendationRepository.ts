import { Context, type Effect, type Option, type Stream } from "effect"
import type { RepositoryError } from "../Errors.ts"
import type { CatalogItemId, RecommendationId, RunId, WorkspaceId } from "../Ids.ts"
import type { Outcome } from "../Outcome.ts"
import type { Page, PageRequest } from "../Page.ts"
import type { Recommendation, RecommendationStatus } from "../Recommendation.ts"

export interface RecommendationFilter {
  readonly status: RecommendationStatus | null
  readonly runId: RunId | null
}

export class RecommendationRepository extends Context.Service<
  RecommendationRepository,
  {
    readonly get: (
      workspaceId: WorkspaceId,
      id: RecommendationId
    ) => Effect.Effect<Option.Option<Recommendation>, RepositoryError>
    readonly list: (
      workspaceId: WorkspaceId,
      filter: RecommendationFilter,
      page: PageRequest
    ) => Effect.Effect<Page<Recommendation>, RepositoryError>
    /**
     * Load (locked), decide, save with a compare-and-swap on `version`, bumping it.
     * None when there is no such recommendation in the workspace.
     */
    readonly update: (
      workspaceId: WorkspaceId,
      id: RecommendationId,
      decide: (current: Recommendation) => Outcome<Recommendation>
    ) => Effect.Effect<Option.Option<Outcome<Recommendation>>, RepositoryError>
    /** Inserts a run's recommendations; a (run, item) pair already present is skipped. Returns how many were new. */
    readonly insertMany: (recommendations: ReadonlyArray<Recommendation>) => Effect.Effect<number, RepositoryError>
    /**
     * Whether the workspace has an open (`new`, `pending_approval`) recommendation made by another
     * run than `exceptRunId`: when it has none, a run has nothing to supersede.
     */
    readonly hasOpen: (workspaceId: WorkspaceId, exceptRunId: RunId) => Effect.Effect<boolean, RepositoryError>
    /** A newer run supersedes the open (`new`, `pending_approval`) recommendations of the same items. */
    readonly supersedeOpen: (
      workspaceId: WorkspaceId,
      itemIds: ReadonlyArray<CatalogItemId>,
      newerRunId: RunId,
      now: number
    ) => Effect.Effect<number, RepositoryError>
    /** Every recommendation of the workspace, newest first, without loading them all at once (report export). */
    readonly stream: (workspaceId: WorkspaceId) => Stream.Stream<Recommendation, RepositoryError>
  }
>()("margin/core/RecommendationRepository") {}
