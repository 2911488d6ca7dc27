import { Schema } from "effect"
import { Tag } from "../catalog/Tag.ts"
import { RunId, WorkspaceId } from "../kernel/Ids.ts"
import { Timestamp } from "../kernel/Timestamp.ts"

export const runStatuses = ["queued", "running", "succeeded", "failed", "cancelled"] as const
export const RunStatus = Schema.Literals(runStatuses)
export type RunStatus = typeof RunStatus.Type

export const RunTrigger = Schema.Literals(["api", "mcp", "schedule", "cli"])
export type RunTrigger = typeof RunTrigger.Type

export const Run = Schema.Struct({
  id: RunId,
  workspaceId: WorkspaceId,
  status: RunStatus,
  /** Empty = the whole catalog; otherwise the items carrying any of these tags. */
  subsetTags: Schema.Array(Tag),
  trigger: RunTrigger,
  requestedBy: Schema.NullOr(Schema.String),
  itemsTotal: Schema.NullOr(Schema.Number),
  itemsAnalysed: Schema.Number,
  recommendationsCount: Schema.Number,
  alertsCount: Schema.Number,
  error: Schema.NullOr(Schema.String),
  version: Schema.Number,
  createdAt: Timestamp,
  startedAt: Schema.NullOr(Timestamp),
  finishedAt: Schema.NullOr(Timestamp)
})
export type Run = typeof Run.Type
