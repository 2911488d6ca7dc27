import { WorkspaceId } from "@margin/core/kernel/Ids"
import { PricingObjective, type PricingPolicy, RoundingMode } from "@margin/core/pricing/PricingPolicy"
import { Plan } from "@margin/core/workspaces/Plan"
import { LifecycleState, type Workspace } from "@margin/core/workspaces/Workspace"
import { WorkspaceRepository } from "@margin/core/workspaces/WorkspaceRepository"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Float, Instant, NullableFloat, NullableInstant, toNullableTimestamptz, toTimestamptz } from "./PgColumns.ts"
import { afterCursor, asPage } from "./PgPaging.ts"
import { asRepository, asRepositoryWith } from "./PgRepositoryError.ts"
import { columnsOf, firstOf, rowsOf, touchedAny } from "./PgRows.ts"

/** A row of `workspaces`: the pricing policy is flattened into columns. */
export const WorkspaceRow = Schema.Struct({
  id: WorkspaceId,
  name: Schema.String,
  plan: Plan,
  lifecycle_state: LifecycleState,
  target_margin: Float,
  min_margin: Float,
  max_change_pct: Float,
  rounding: RoundingMode,
  threshold: Float,
  objective: PricingObjective,
  default_elasticity: Float,
  max_premium_over_competitor: NullableFloat,
  min_expected_gain: Float,
  trial_ends_at: NullableInstant,
  created_at: Instant
})
export type WorkspaceRow = typeof WorkspaceRow.Type

export const toDomain = (row: WorkspaceRow): Workspace => ({
  id: row.id,
  name: row.name,
  plan: row.plan,
  lifecycleState: row.lifecycle_state,
  pricingPolicy: {
    targetMargin: row.target_margin,
    minMargin: row.min_margin,
    maxChangePct: row.max_change_pct,
    rounding: row.rounding,
    threshold: row.threshold,
    objective: row.objective,
    defaultElasticity: row.default_elasticity,
    maxPremiumOverCompetitor: row.max_premium_over_competitor,
    minExpectedGain: row.min_expected_gain
  },
  trialEndsAt: row.trial_ends_at,
  createdAt: row.created_at
})

const policyColumns = (policy: PricingPolicy) => ({
  target_margin: policy.targetMargin,
  min_margin: policy.minMargin,
  max_change_pct: policy.maxChangePct,
  rounding: policy.rounding,
  threshold: policy.threshold,
  objective: policy.objective,
  default_elasticity: policy.defaultElasticity,
  max_premium_over_competitor: policy.maxPremiumOverCompetitor,
  min_expected_gain: policy.minExpectedGain
})

export const toRow = (workspace: Workspace) => ({
  id: workspace.id,
  name: workspace.name,
  plan: workspace.plan,
  lifecycle_state: workspace.lifecycleState,
  ...policyColumns(workspace.pricingPolicy),
  trial_ends_at: toNullableTimestamptz(workspace.trialEndsAt),
  created_at: toTimestamptz(workspace.createdAt)
})

const one = firstOf(WorkspaceRow, toDomain)
const all = rowsOf(WorkspaceRow, toDomain)

export const layer: Layer.Layer<WorkspaceRepository, never, SqlClient.SqlClient> = Layer.effect(
  WorkspaceRepository,
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const columns = sql.literal(columnsOf(WorkspaceRow))

    /** Changes some columns of one workspace; whether it exists. */
    const set = (operation: string, id: WorkspaceId, changes: Record<string, unknown>) =>
      sql`UPDATE workspaces SET ${sql.update(changes)} WHERE id = ${id} RETURNING id`.pipe(
        Effect.map(touchedAny),
        asRepository(operation)
      )

    return WorkspaceRepository.of({
      get: (id) =>
        sql`SELECT ${columns} FROM workspaces WHERE id = ${id}`.pipe(asRepositoryWith("WorkspaceRepository.get", one)),
      insert: (workspace) =>
        sql`INSERT INTO workspaces ${sql.insert(toRow(workspace))}`.pipe(
          asRepositoryWith("WorkspaceRepository.insert", () => Effect.void)
        ),
      setPlan: (id, plan) => set("WorkspaceRepository.setPlan", id, { plan }),
      setLifecycleState: (id, state) => set("WorkspaceRepository.setLifecycleState", id, { lifecycle_state: state }),
      setPricingPolicy: (id, policy) => set("WorkspaceRepository.setPricingPolicy", id, policyColumns(policy)),
      // A transaction-scoped advisory lock: it goes with the transaction (a dying process leaves none)
      // and, unlike a row lock on `workspaces`, does not wait on plan or policy changes.
      lockUsage: (id) =>
        sql`SELECT pg_advisory_xact_lock(hashtext(${`plan-caps:${id}`}))`.pipe(
          asRepositoryWith("WorkspaceRepository.lockUsage", () => Effect.void)
        ),
      // Names are not unique: the oldest workspace of that name is the one seeding created first.
      findByName: (name) =>
        sql`SELECT ${columns} FROM workspaces WHERE name = ${name} ORDER BY created_at, id LIMIT 1`.pipe(
          asRepositoryWith("WorkspaceRepository.findByName", one)
        ),
      // Operators only: no index serves it, so each page reads the table (a top-N sort of every workspace).
      list: (page) =>
        sql`
          SELECT ${columns} FROM workspaces
          WHERE ${afterCursor(sql, page.cursor)}
          ORDER BY created_at DESC, id DESC
          LIMIT ${page.limit + 1}`.pipe(asPage("WorkspaceRepository.list", all, page.limit))
    })
  })
)
