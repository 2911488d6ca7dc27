import { Effect, HashMap, Layer, Option, Stream } from "effect"
import type { CatalogItemId, RunId, WorkspaceId } from "../kernel/Ids.ts"
import type { Cursor } from "../kernel/Page.ts"
import { decidedStatuses, type PriorDecision, priorDecisionOf } from "../recommendations/DecisionMemory.ts"
import { openRecommendationStatuses, type Recommendation } from "../recommendations/Recommendation.ts"
import {
  type RecommendationFilter,
  RecommendationRepository,
  type SupersedeNote
} from "../recommendations/RecommendationRepository.ts"
import { decideAndSave, wholeRow } from "./internal/MemoryDecide.ts"
import { byCreatedAt, pageBy } from "./internal/MemoryPaging.ts"
import { getRow, rowsWhere } from "./internal/MemoryRows.ts"
import { recommendationsTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

/** Rows per read while streaming a workspace's recommendations. */
const streamChunkSize = 500

/** Created later, or at the same instant with a greater id: the order of the lists, newest first. */
const newer = (a: Recommendation, b: Recommendation): boolean =>
  a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id)

const runItemKey = (recommendation: Recommendation): string => `${recommendation.runId}/${recommendation.itemId}`

export const layer: Layer.Layer<RecommendationRepository, never, MemoryDatabase> = Layer.effect(
  RecommendationRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase

    const page = (workspaceId: WorkspaceId, filter: RecommendationFilter, limit: number, cursor: Cursor | null) =>
      db.read((tables) =>
        pageBy(
          rowsWhere(
            tables.recommendations,
            (recommendation) =>
              recommendation.workspaceId === workspaceId &&
              (filter.status === null || recommendation.status === filter.status) &&
              (filter.runId === null || recommendation.runId === filter.runId) &&
              (filter.itemId == null || recommendation.itemId === filter.itemId) &&
              (filter.rule == null || recommendation.rule === filter.rule) &&
              (filter.tag == null ||
                Option.exists(
                  HashMap.get(tables.catalogItems, recommendation.itemId),
                  (item) => item.workspaceId === workspaceId && filter.tag != null && item.tags.includes(filter.tag)
                ))
          ),
          byCreatedAt,
          { limit, cursor }
        )
      )

    // A run's recommendations arrive in one batch; pairs already stored (a retried batch) are skipped.
    const insertMany = (recommendations: ReadonlyArray<Recommendation>) =>
      db.modify((tables) => {
        const seen = new Set(Array.from(HashMap.values(tables.recommendations), runItemKey))
        const fresh = recommendations.filter((recommendation) => {
          const key = runItemKey(recommendation)
          if (seen.has(key) || HashMap.has(tables.recommendations, recommendation.id)) return false
          seen.add(key)
          return true
        })
        const rows = fresh.reduce(
          (all, recommendation) => HashMap.set(all, recommendation.id, recommendation),
          tables.recommendations
        )
        return [fresh.length, { ...tables, recommendations: rows }]
      })

    const supersedeOpen = (
      workspaceId: WorkspaceId,
      itemIds: ReadonlyArray<CatalogItemId>,
      newerRunId: RunId,
      now: number
    ) =>
      db.modify((tables) => {
        const items = new Set<string>(itemIds)
        const superseded = rowsWhere(
          tables.recommendations,
          (recommendation) =>
            recommendation.workspaceId === workspaceId &&
            items.has(recommendation.itemId) &&
            recommendation.runId !== newerRunId &&
            openRecommendationStatuses.includes(recommendation.status)
        )
        const rows = superseded.reduce(
          (all, recommendation) =>
            HashMap.set(all, recommendation.id, {
              ...recommendation,
              status: "superseded" as const,
              updatedAt: now,
              version: recommendation.version + 1
            }),
          tables.recommendations
        )
        return [superseded.length, { ...tables, recommendations: rows }]
      })

    const decided = (workspaceId: WorkspaceId) => (recommendation: Recommendation) =>
      recommendation.workspaceId === workspaceId && decidedStatuses.includes(recommendation.status)

    // The latest decided recommendation per item, as the index of the PostgreSQL adapter orders them.
    const decisionsFor = (workspaceId: WorkspaceId, itemIds: ReadonlyArray<CatalogItemId>) =>
      db.read((tables) => {
        const items = new Set<string>(itemIds)
        const latest = new Map<string, Recommendation>()
        for (const recommendation of HashMap.values(tables.recommendations)) {
          if (!items.has(recommendation.itemId) || !decided(workspaceId)(recommendation)) continue
          const held = latest.get(recommendation.itemId)
          if (held === undefined || newer(recommendation, held)) latest.set(recommendation.itemId, recommendation)
        }
        return Array.from(latest.values(), priorDecisionOf) satisfies ReadonlyArray<PriorDecision>
      })

    const supersedeAccepted = (
      workspaceId: WorkspaceId,
      notes: ReadonlyArray<SupersedeNote>,
      newerRunId: RunId,
      now: number
    ) =>
      db.modify((tables) => {
        let rows = tables.recommendations
        let superseded = 0
        for (const note of notes) {
          const current = HashMap.get(rows, note.id).pipe(Option.getOrUndefined)
          if (
            current === undefined ||
            current.workspaceId !== workspaceId ||
            current.runId === newerRunId ||
            current.status !== "pending_approval"
          )
            continue
          rows = HashMap.set(rows, note.id, {
            ...current,
            status: "superseded" as const,
            supersededBy: note.supersededBy,
            supersededReason: note.reason,
            updatedAt: now,
            version: current.version + 1
          })
          superseded++
        }
        return [superseded, { ...tables, recommendations: rows }]
      })

    return RecommendationRepository.of({
      get: (workspaceId, id) =>
        getRow(db, recommendationsTable, id).pipe(
          Effect.map(Option.filter((recommendation) => recommendation.workspaceId === workspaceId))
        ),
      list: (workspaceId, filter, request) => page(workspaceId, filter, request.limit, request.cursor),
      update: (workspaceId, id, decide) => decideAndSave(db, recommendationsTable, wholeRow(), workspaceId, id, decide),
      insertMany,
      hasOpen: (workspaceId, exceptRunId) =>
        db.read(
          (tables) =>
            rowsWhere(
              tables.recommendations,
              (recommendation) =>
                recommendation.workspaceId === workspaceId &&
                recommendation.runId !== exceptRunId &&
                openRecommendationStatuses.includes(recommendation.status)
            ).length > 0
        ),
      supersedeOpen,
      hasDecisions: (workspaceId) =>
        db.read((tables) => rowsWhere(tables.recommendations, decided(workspaceId)).length > 0),
      decisionsFor,
      supersedeAccepted,
      // Page by page with the list's own cursor, so an export never holds the whole workspace.
      stream: (workspaceId) =>
        Stream.paginate<Cursor | null, Recommendation, never, never>(null, (after) =>
          page(workspaceId, { status: null, runId: null }, streamChunkSize, after).pipe(
            Effect.map((result) => {
              const last = result.items[result.items.length - 1]
              const next =
                result.nextCursor === null || last === undefined ? Option.none() : Option.some(byCreatedAt(last))
              return [result.items, next] as const
            })
          )
        )
    })
  })
)
