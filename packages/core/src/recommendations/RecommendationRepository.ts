import { Context, type Effect, type Option, type Stream } from "effect"
import type { Tag } from "../catalog/Tag.ts"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { CatalogItemId, RecommendationId, RunId, WorkspaceId } from "../kernel/Ids.ts"
import type { Outcome } from "../kernel/Outcome.ts"
import type { Page, PageRequest } from "../kernel/Page.ts"
import type { RuleCode } from "../pricing/PriceRecommendation.ts"
import type { PriorDecision } from "./DecisionMemory.ts"
import type { Recommendation, RecommendationStatus } from "./Recommendation.ts"

export interface RecommendationFilter {
  readonly status: RecommendationStatus | null
  readonly runId: RunId | null
  /** Only one item's recommendations. */
  readonly itemId?: CatalogItemId | null
  /** Only those issued under this rule. */
  readonly rule?: RuleCode | null
  /** Only those of items carrying this tag now (the item's tags as the catalog holds them). */
  readonly tag?: Tag | null
}

/** An accepted recommendation a newer run supersedes: the one replacing it, and why (both shown on it). */
export interface SupersedeNote {
  readonly id: RecommendationId
  readonly supersededBy: RecommendationId
  readonly reason: string
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
    /**
     * Whether any recommendation of the workspace was ever decided on (a status of `decidedStatuses`):
     * when none was, a run has no decisions to read, chunk by chunk.
     */
    readonly hasDecisions: (workspaceId: WorkspaceId) => Effect.Effect<boolean, RepositoryError>
    /**
     * Per item among `itemIds`, its latest recommendation (by creation, then id) whose status is one of
     * `decidedStatuses`; items without one are absent. In no particular order.
     */
    readonly decisionsFor: (
      workspaceId: WorkspaceId,
      itemIds: ReadonlyArray<CatalogItemId>
    ) => Effect.Effect<ReadonlyArray<PriorDecision>, RepositoryError>
    /**
     * A newer run supersedes accepted recommendations, each with what replaces it and why; a note whose
     * recommendation is no longer `pending_approval` (approved, rejected or dismissed meanwhile) is
     * skipped. Returns how many were superseded.
     */
    readonly supersedeAccepted: (
      workspaceId: WorkspaceId,
      notes: ReadonlyArray<SupersedeNote>,
      newerRunId: RunId,
      now: number
    ) => Effect.Effect<number, RepositoryError>
    /** Every recommendation of the workspace, newest first, without loading them all at once (report export). */
    readonly stream: (workspaceId: WorkspaceId) => Stream.Stream<Recommendation, RepositoryError>
  }
>()("margin/core/RecommendationRepository") {}
