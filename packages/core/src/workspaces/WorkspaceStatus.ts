import { Clock, Context, Effect, Layer, Option } from "effect"
import { CatalogRepository } from "../catalog/CatalogRepository.ts"
import { type RepositoryError, ResourceNotFound } from "../kernel/Errors.ts"
import type { UserId, WorkspaceId } from "../kernel/Ids.ts"
import { RunRepository } from "../runs/RunRepository.ts"
import { isDeletionActive } from "./DeletionRequest.ts"
import { DeletionRequestRepository } from "./DeletionRequestRepository.ts"
import { type Plan, planLimits } from "./Plan.ts"
import { isSupportSessionActive } from "./SupportSession.ts"
import { SupportSessionRepository } from "./SupportSessionRepository.ts"
import { usagePeriod } from "./UsagePeriod.ts"
import type { LifecycleState } from "./Workspace.ts"
import { WorkspaceRepository } from "./WorkspaceRepository.ts"

/**
 * `GET /api/v1/workspace/status` as domain values: instants are epoch ms and limits are null when
 * unlimited; the front door renders ISO strings and snake_case keys.
 */
export interface WorkspaceStatusReport {
  readonly lifecycle: {
    readonly state: LifecycleState
    readonly plan: Plan
    readonly createdAt: number
    readonly trialEndsAt: number | null
  }
  readonly usage: {
    /** The current UTC calendar month: [periodStart, periodEnd). */
    readonly periodStart: number
    readonly periodEnd: number
    readonly runsUsed: number
    readonly runsLimit: number | null
    readonly catalogItems: number
    readonly catalogItemsLimit: number | null
  }
  /** Only a session open against this very workspace now; never its id or secrets. */
  readonly supportAccess: {
    readonly active: true
    readonly adminEmail: string
    readonly startedAt: number
    readonly expiresAt: number
  } | null
  /** Only the calling user's own request, while pending or blocked. */
  readonly accountDeletion: {
    /** When the deletion was scheduled (the contract's `scheduled`). */
    readonly scheduledAt: number
    readonly effectiveAt: number
  } | null
}

export class WorkspaceStatus extends Context.Service<
  WorkspaceStatus,
  {
    /** `userId` is the caller's user: the session's, or the user who issued the token; null for none. */
    readonly read: (
      workspaceId: WorkspaceId,
      userId: UserId | null
    ) => Effect.Effect<WorkspaceStatusReport, ResourceNotFound | RepositoryError>
  }
>()("margin/core/WorkspaceStatus") {
  static readonly layer = Layer.effect(
    WorkspaceStatus,
    Effect.gen(function* () {
      const workspaces = yield* WorkspaceRepository
      const runs = yield* RunRepository
      const catalog = yield* CatalogRepository
      const support = yield* SupportSessionRepository
      const deletions = yield* DeletionRequestRepository

      return WorkspaceStatus.of({
        read: Effect.fn("WorkspaceStatus.read")(function* (workspaceId, userId) {
          const found = yield* workspaces.get(workspaceId)
          if (Option.isNone(found)) return yield* new ResourceNotFound({ resource: "workspace", id: workspaceId })
          const workspace = found.value
          const now = yield* Clock.currentTimeMillis
          const period = usagePeriod(now)
          const limits = planLimits[workspace.plan]
          const [runsUsed, catalogItems, session, deletion] = yield* Effect.all(
            [
              runs.countCreatedSince(workspaceId, period.start),
              catalog.count(workspaceId),
              support.activeFor(workspaceId, now),
              userId === null ? Effect.succeed(Option.none()) : deletions.activeFor(userId)
            ],
            { concurrency: "unbounded" }
          )
          return {
            lifecycle: {
              state: workspace.lifecycleState,
              plan: workspace.plan,
              createdAt: workspace.createdAt,
              trialEndsAt: workspace.trialEndsAt
            },
            usage: {
              periodStart: period.start,
              periodEnd: period.end,
              runsUsed,
              runsLimit: limits.runsPerMonth,
              catalogItems,
              catalogItemsLimit: limits.catalogItems
            },
            supportAccess: Option.match(
              Option.filter(session, (s) => s.workspaceId === workspaceId && isSupportSessionActive(s, now)),
              {
                onNone: () => null,
                onSome: (s) => ({
                  active: true,
                  adminEmail: s.adminEmail,
                  startedAt: s.startedAt,
                  expiresAt: s.expiresAt
                })
              }
            ),
            accountDeletion: Option.match(Option.filter(deletion, isDeletionActive), {
              onNone: () => null,
              onSome: (d) => ({ scheduledAt: d.scheduledAt, effectiveAt: d.effectiveAt })
            })
          } satisfies WorkspaceStatusReport
        })
      })
    })
  )
}
