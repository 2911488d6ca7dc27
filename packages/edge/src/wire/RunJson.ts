import { toIso } from "@margin/core/kernel/Timestamp"
import type { Run } from "@margin/core/runs/Run"
import { RunStatus, RunTrigger } from "@margin/core/runs/Run"
import { Schema } from "effect"
import { IsoTimestamp, isoOrNull } from "./TimestampJson.ts"

export const RunJson = Schema.Struct({
  id: Schema.String,
  status: RunStatus,
  subset_tags: Schema.Array(Schema.String),
  trigger: RunTrigger,
  requested_by: Schema.NullOr(Schema.String),
  items_total: Schema.NullOr(Schema.Int),
  items_analysed: Schema.Int,
  recommendations_count: Schema.Int,
  alerts_count: Schema.Int,
  error: Schema.NullOr(Schema.String),
  created_at: IsoTimestamp,
  started_at: Schema.NullOr(IsoTimestamp),
  finished_at: Schema.NullOr(IsoTimestamp)
}).annotate({ identifier: "Run" })
export type RunJson = typeof RunJson.Type

export const runJson = (run: Run): RunJson => ({
  id: run.id,
  status: run.status,
  subset_tags: run.subsetTags,
  trigger: run.trigger,
  requested_by: run.requestedBy,
  items_total: run.itemsTotal,
  items_analysed: run.itemsAnalysed,
  recommendations_count: run.recommendationsCount,
  alerts_count: run.alertsCount,
  error: run.error,
  created_at: toIso(run.createdAt),
  started_at: isoOrNull(run.startedAt),
  finished_at: isoOrNull(run.finishedAt)
})
