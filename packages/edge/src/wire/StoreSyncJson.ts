import { actorLabel } from "@margin/core/access/Actor"
import { toIso } from "@margin/core/kernel/Timestamp"
import type { StoreSyncJob } from "@margin/core/stores/StoreSyncJob"
import { StoreSyncJobStatus } from "@margin/core/stores/StoreSyncJob"
import { StoreSyncTrigger } from "@margin/core/stores/StoreSyncState"
import { Schema } from "effect"
import { CatalogImportSummaryJson, catalogImportSummaryJson } from "./CatalogImportSummaryJson.ts"
import { IsoTimestamp, isoOrNull } from "./TimestampJson.ts"

/**
 * One sync of the workspace's store as REST and MCP answer it (POST /api/v1/store/syncs, and GET it
 * back): queued, then running, then succeeded with its summary (as an import's) or failed with why.
 */
export const StoreSyncJson = Schema.Struct({
  id: Schema.String,
  status: StoreSyncJobStatus,
  /** `manual` (asked for) or `schedule` (the workspace's schedule). */
  trigger: StoreSyncTrigger,
  /** A scheduled sync's slot; null for one asked for. */
  slot_at: Schema.NullOr(IsoTimestamp),
  /** `full`: the sync read the whole store (the first one, and once a day); `changes`: what changed since the last; null until it succeeded. */
  read: Schema.NullOr(Schema.Literals(["full", "changes"])),
  /** What the sync did to the catalog; null until it succeeded. */
  summary: Schema.NullOr(CatalogImportSummaryJson),
  /** Why it failed; null unless failed. */
  error: Schema.NullOr(Schema.String),
  /** The run queued after a scheduled sync; null for none. */
  run_id: Schema.NullOr(Schema.String),
  /** Why no run was queued after a scheduled sync that asked for one (a plan limit, for instance). */
  run_refused: Schema.NullOr(Schema.String),
  requested_by: Schema.String,
  created_at: IsoTimestamp,
  started_at: Schema.NullOr(IsoTimestamp),
  finished_at: Schema.NullOr(IsoTimestamp)
}).annotate({
  identifier: "StoreSync",
  examples: [
    {
      id: "syn_01jh9c2f0000000000000000",
      status: "succeeded",
      trigger: "schedule",
      slot_at: "2026-12-07T05:00:00.000Z",
      read: "changes",
      summary: {
        created: 2,
        updated: 40,
        price_changed: 12,
        cost_changed: 3,
        other_changed: 31,
        unchanged: 958,
        stale_price: 1,
        rejected: [{ line: 17, error: "variant gid://shopify/ProductVariant/17 has no sku" }],
        rejected_total: 1
      },
      error: null,
      run_id: "run_01jh9c3a0000000000000000",
      run_refused: null,
      requested_by: "system:schedule",
      created_at: "2026-12-07T05:00:12.000Z",
      started_at: "2026-12-07T05:00:13.000Z",
      finished_at: "2026-12-07T05:00:41.000Z"
    }
  ]
})
export type StoreSyncJson = typeof StoreSyncJson.Type

export const storeSyncJson = (job: StoreSyncJob): StoreSyncJson => ({
  id: job.id,
  status: job.status,
  trigger: job.trigger,
  slot_at: isoOrNull(job.slotAt),
  read: job.report === null ? null : job.report.full ? "full" : "changes",
  summary: job.report === null ? null : catalogImportSummaryJson(job.report.summary),
  error: job.error,
  run_id: job.runId,
  run_refused: job.runRefused,
  requested_by: actorLabel(job.actor),
  created_at: toIso(job.createdAt),
  started_at: isoOrNull(job.startedAt),
  finished_at: isoOrNull(job.finishedAt)
})
