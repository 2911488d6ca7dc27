import { toIso } from "@margin/core/kernel/Timestamp"
import { Plan } from "@margin/core/workspaces/Plan"
import { LifecycleState } from "@margin/core/workspaces/Workspace"
import type { WorkspaceStatusReport } from "@margin/core/workspaces/WorkspaceStatus"
import { Schema } from "effect"
import { IsoTimestamp, isoOrNull } from "./TimestampJson.ts"

/**
 * docs/contract.md, "Workspace status": four keys, always present. `support_access` has exactly four fields, and
 * `account_deletion` exactly two (`scheduled` is the instant the deletion was scheduled).
 */
export const WorkspaceStatusJson = Schema.Struct({
  lifecycle: Schema.Struct({
    state: LifecycleState,
    plan: Plan,
    created_at: IsoTimestamp,
    trial_ends_at: Schema.NullOr(IsoTimestamp)
  }),
  usage: Schema.Struct({
    period_start: IsoTimestamp,
    period_end: IsoTimestamp,
    runs_used: Schema.Int,
    /** null: unlimited. */
    runs_limit: Schema.NullOr(Schema.Int),
    catalog_items: Schema.Int,
    catalog_items_limit: Schema.NullOr(Schema.Int)
  }),
  support_access: Schema.NullOr(
    Schema.Struct({
      active: Schema.Boolean,
      admin_email: Schema.String,
      started_at: IsoTimestamp,
      expires_at: IsoTimestamp
    })
  ),
  account_deletion: Schema.NullOr(
    Schema.Struct({
      scheduled: IsoTimestamp,
      effective_at: IsoTimestamp
    })
  )
}).annotate({ identifier: "WorkspaceStatus" })
export type WorkspaceStatusJson = typeof WorkspaceStatusJson.Type

export const workspaceStatusJson = (report: WorkspaceStatusReport): WorkspaceStatusJson => ({
  lifecycle: {
    state: report.lifecycle.state,
    plan: report.lifecycle.plan,
    created_at: toIso(report.lifecycle.createdAt),
    trial_ends_at: isoOrNull(report.lifecycle.trialEndsAt)
  },
  usage: {
    period_start: toIso(report.usage.periodStart),
    period_end: toIso(report.usage.periodEnd),
    runs_used: report.usage.runsUsed,
    runs_limit: report.usage.runsLimit,
    catalog_items: report.usage.catalogItems,
    catalog_items_limit: report.usage.catalogItemsLimit
  },
  support_access:
    report.supportAccess === null
      ? null
      : {
          active: report.supportAccess.active,
          admin_email: report.supportAccess.adminEmail,
          started_at: toIso(report.supportAccess.startedAt),
          expires_at: toIso(report.supportAccess.expiresAt)
        },
  account_deletion:
    report.accountDeletion === null
      ? null
      : {
          scheduled: toIso(report.accountDeletion.scheduledAt),
          effective_at: toIso(report.accountDeletion.effectiveAt)
        }
})
