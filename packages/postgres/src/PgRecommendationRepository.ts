import { CatalogItemId, RecommendationId } from "@margin/core/kernel/Ids"
import { CurrencyCode } from "@margin/core/kernel/Money"
import { pageOf } from "@margin/core/kernel/Page"
import { decidedStatuses, type PriorDecision } from "@margin/core/recommendations/DecisionMemory"
import { RecommendationStatus } from "@margin/core/recommendations/Recommendation"
import type { RecommendationBasis } from "@margin/core/recommendations/RecommendationBasis"
import { RecommendationRepository } from "@margin/core/recommendations/RecommendationRepository"
import { Array as Arr, Effect, Layer, Option, Schema, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { insertSkippingConflicts } from "./PgBatchInsert.ts"
import { Float, Int8, NullableInt8, toTimestamptz } from "./PgColumns.ts"
import { updateOn } from "./PgDecide.ts"
import { afterCursor } from "./PgPaging.ts"
import { recommendationRows } from "./PgRecommendationRows.ts"
import { asRepository, asRepositoryStream } from "./PgRepositoryError.ts"
import { chunkOf, columnsOf, firstOf, fromValues, readValues, rowsOf, transitionChanges } from "./PgRows.ts"

/** The basis columns as the domain's basis; none recorded (rows older than migration 0014) is null. */
const basisOf = (row: {
  readonly basis_cost: number | null
  readonly basis_competitor_price: number | null
  readonly basis_policy: string | null
}): RecommendationBasis | null =>
  row.basis_policy === null
    ? null
    : { cost: row.basis_cost, competitorPrice: row.basis_competitor_price, policy: row.basis_policy }

const { toDomain, toRow, insertTypes } = recommendationRows

/** What a run reads of an item's latest decided recommendation (DecisionMemory). */
const DecisionRow = Schema.Struct({
  id: RecommendationId,
  item_id: CatalogItemId,
  status: RecommendationStatus,
  currency: CurrencyCode,
  current_price: Int8,
  recommended_price: Int8,
  elasticity: Float,
  elasticity_low: Float,
  elasticity_high: Float,
  basis_cost: NullableInt8,
  basis_competitor_price: NullableInt8,
  basis_policy: Schema.NullOr(Schema.String)
})

const decisionOf = (row: typeof DecisionRow.Type): PriorDecision => ({
  id: row.id,
  itemId: row.item_id,
  status: row.status,
  currency: row.currency,
  currentPrice: row.current_price,
  recommendedPrice: row.recommended_price,
  elasticity: row.elasticity,
  elasticityInterval: [row.elasticity_low, row.elasticity_high],
  basis: basisOf(row)
})
const decisionsOf = rowsOf(DecisionRow, decisionOf)
const decidedOf = firstOf(Schema.Struct({ decided: Schema.Boolean }), (row) => row.decided)

// Read as the driver's values (PgRows.readValues, PgEntityRows): these rows have two dozen columns.
const { values: RowValues, fast, valuesOf } = recommendationRows
const asIs = (values: ReadonlyArray<unknown>) => values
const first = firstOf(RowValues, toDomain, fast)
const readFirst = readValues(asIs, first)
const readAll = readValues(asIs, rowsOf(RowValues, toDomain, fast))
const chunk = chunkOf(RowValues, toDomain, fast)
const changes = transitionChanges(recommendationRows.schema, toRow)
const openOf = firstOf(Schema.Struct({ open: Schema.Boolean }), (row) => row.open)
const staleOf = firstOf(Schema.Struct({ stale: Schema.Boolean }), (row) => row.stale)

/** Rows changed since the last ANALYZE below which statistics are never refreshed here (autovacuum's job). */
const staleAfterChanges = 10_000

export const layer: Layer.Layer<RecommendationRepository, never, SqlClient.SqlClient> = Layer.effect(
  RecommendationRepository,
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const columns = sql.literal(columnsOf(recommendationRows.schema))
    // Written out, not bound: the planner matches it to the partial index's predicate.
    const decided = sql.literal(`(${decidedStatuses.map((status) => `'${status}'`).join(", ")})`)

    /**
     * ANALYZE when the statistics lag far behind the table: a large run has just written more rows
     * than the table held when last analysed, and autovacuum has not had its turn yet. Without
     * them the planner takes the open recommendations of a workspace for a handful and reads them
     * all for every chunk's supersede (quadratic in the catalog), instead of probing item by item.
     */
    const freshenStatistics = sql`
      SELECT n_mod_since_analyze > ${staleAfterChanges}
        AND n_mod_since_analyze > 0.2 * (n_live_tup - n_mod_since_analyze) AS stale
      FROM pg_stat_user_tables WHERE relid = 'recommendations'::regclass`.pipe(
      Effect.flatMap(staleOf),
      Effect.flatMap((stale) =>
        Option.getOrElse(stale, () => false) ? sql`ANALYZE recommendations`.pipe(Effect.asVoid) : Effect.void
      )
    )

    return RecommendationRepository.of({
      get: (workspaceId, id) =>
        readFirst(sql`SELECT ${columns} FROM recommendations WHERE workspace_id = ${workspaceId} AND id = ${id}`).pipe(
          asRepository("RecommendationRepository.get")
        ),
      list: (workspaceId, filter, page) =>
        readAll(sql`
          SELECT ${columns} FROM recommendations
          WHERE workspace_id = ${workspaceId}
            AND ${filter.status === null ? sql.literal("TRUE") : sql`status = ${filter.status}`}
            AND ${filter.runId === null ? sql.literal("TRUE") : sql`run_id = ${filter.runId}`}
            AND ${filter.itemId == null ? sql.literal("TRUE") : sql`item_id = ${filter.itemId}`}
            AND ${filter.rule == null ? sql.literal("TRUE") : sql`rule = ${filter.rule}`}
            AND ${
              filter.tag == null
                ? sql.literal("TRUE")
                : sql`item_id IN (SELECT id FROM catalog_items WHERE workspace_id = ${workspaceId} AND tags @> ${[filter.tag]})`
            }
            AND ${afterCursor(sql, page.cursor)}
          ORDER BY created_at DESC, id DESC
          LIMIT ${page.limit + 1}`).pipe(
          Effect.map((recommendations) => pageOf(recommendations, page.limit)),
          asRepository("RecommendationRepository.list")
        ),
      update: updateOn(sql, {
        table: "recommendations",
        columns,
        first: { reads: "values", decode: fromValues(asIs, first) },
        changes,
        operation: "RecommendationRepository.update"
      }),
      // DO NOTHING without a target skips a (run_id, item_id) pair already stored (a retried batch,
      // or twice in this one) and a duplicate id alike.
      insertMany: (recommendations) =>
        insertSkippingConflicts(sql, "recommendations", insertTypes, Arr.map(recommendations, toRow)).pipe(
          sql.withTransaction,
          asRepository("RecommendationRepository.insertMany")
        ),
      // Asked once as a run starts, before it supersedes chunk by chunk: the moment to make sure the
      // planner knows the table's size and contents (see freshenStatistics).
      hasOpen: (workspaceId, exceptRunId) =>
        freshenStatistics.pipe(
          Effect.andThen(sql`
            SELECT EXISTS (
              SELECT 1 FROM recommendations
              WHERE workspace_id = ${workspaceId} AND status IN ('new', 'pending_approval') AND run_id <> ${exceptRunId}
            ) AS open`),
          Effect.flatMap(openOf),
          Effect.map(Option.getOrElse(() => false)),
          asRepository("RecommendationRepository.hasOpen")
        ),
      supersedeOpen: (workspaceId, itemIds, newerRunId, now) =>
        itemIds.length === 0
          ? Effect.succeed(0)
          : sql`
              UPDATE recommendations
              SET status = 'superseded', superseded_by_run_id = ${newerRunId},
                  updated_at = ${toTimestamptz(now)}, version = version + 1
              WHERE workspace_id = ${workspaceId} AND item_id = ANY(${itemIds}) AND run_id <> ${newerRunId}
                AND status IN ('new', 'pending_approval')
              RETURNING id`.pipe(
              Effect.map((rows) => rows.length),
              asRepository("RecommendationRepository.supersedeOpen")
            ),
      // The partial index recommendations_decided_item_idx holds exactly these statuses (migration 0014).
      hasDecisions: (workspaceId) =>
        sql`
          SELECT EXISTS (
            SELECT 1 FROM recommendations WHERE workspace_id = ${workspaceId} AND status IN ${decided}
          ) AS decided`.pipe(
          Effect.flatMap(decidedOf),
          Effect.map(Option.getOrElse(() => false)),
          asRepository("RecommendationRepository.hasDecisions")
        ),
      // One range scan of the partial index over the chunk's ids (chunks are ranges of ids), filtered here:
      // probing the index once per id (item_id = ANY) cost 5-35 ms a chunk of 5,000, the range below 1 ms.
      decisionsFor: (workspaceId, itemIds) => {
        if (itemIds.length === 0) return Effect.succeed([])
        const asked = new Set<string>(itemIds)
        return sql`
          WITH bounds AS (SELECT min(id) AS low, max(id) AS high FROM unnest(${itemIds}::text[] COLLATE "C") AS id)
          SELECT DISTINCT ON (item_id) ${sql.literal(columnsOf(DecisionRow))} FROM recommendations, bounds
          WHERE workspace_id = ${workspaceId} AND item_id BETWEEN bounds.low AND bounds.high AND status IN ${decided}
          ORDER BY item_id, created_at DESC, id DESC`.pipe(
          Effect.flatMap(decisionsOf),
          Effect.map((found) => found.filter((decision) => asked.has(decision.itemId))),
          asRepository("RecommendationRepository.decisionsFor")
        )
      },
      supersedeAccepted: (workspaceId, notes, newerRunId, now) =>
        notes.length === 0
          ? Effect.succeed(0)
          : sql`
              UPDATE recommendations AS r
              SET status = 'superseded', superseded_by_run_id = ${newerRunId}, superseded_by = n.superseded_by,
                  superseded_reason = n.reason, updated_at = ${toTimestamptz(now)}, version = r.version + 1
              FROM unnest(${notes.map((note) => note.id)}::text[], ${notes.map((note) => note.supersededBy)}::text[],
                          ${notes.map((note) => note.reason)}::text[]) AS n(id, superseded_by, reason)
              WHERE r.workspace_id = ${workspaceId} AND r.id = n.id AND r.run_id <> ${newerRunId}
                AND r.status = 'pending_approval'
              RETURNING r.id`.pipe(
              Effect.map((rows) => rows.length),
              asRepository("RecommendationRepository.supersedeAccepted")
            ),
      // One query read through a cursor: rows arrive as the consumer takes them, so memory stays flat.
      stream: (workspaceId) =>
        sql`
          SELECT ${columns} FROM recommendations
          WHERE workspace_id = ${workspaceId}
          ORDER BY created_at DESC, id DESC`.stream.pipe(
          Stream.mapArrayEffect((rows) => chunk(Arr.map(rows, valuesOf))),
          asRepositoryStream("RecommendationRepository.stream")
        )
    })
  })
)
