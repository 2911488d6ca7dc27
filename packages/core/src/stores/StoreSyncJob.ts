import { Schema } from "effect"
import { Actor } from "../access/Actor.ts"
import { RunId, StoreSyncId, WorkspaceId } from "../kernel/Ids.ts"
import { Timestamp } from "../kernel/Timestamp.ts"
import { StoreSyncReport, StoreSyncTrigger } from "./StoreSyncState.ts"

export const StoreSyncJobStatus = Schema.Literals(["queued", "running", "succeeded", "failed"])
export type StoreSyncJobStatus = typeof StoreSyncJobStatus.Type

/**
 * One sync of a workspace's store, asked for (REST, MCP, the console) or due by its schedule, and
 * executed by a worker (docs/stores.md, "Syncs on demand and on schedule"). A scheduled one names its
 * slot: a workspace has at most one sync per slot, which is what makes a slot run once however many
 * workers look at it.
 */
export const StoreSyncJob = Schema.Struct({
  id: StoreSyncId,
  workspaceId: WorkspaceId,
  trigger: StoreSyncTrigger,
  /** The schedule's slot (epoch ms) for a scheduled sync; null for one asked for. */
  slotAt: Schema.NullOr(Timestamp),
  /** Queue a run (trigger `schedule`) once the sync is applied. */
  runAfterSync: Schema.Boolean,
  status: StoreSyncJobStatus,
  actor: Actor,
  createdAt: Timestamp,
  startedAt: Schema.NullOr(Timestamp),
  finishedAt: Schema.NullOr(Timestamp),
  /** Workers that took it: more than one when a worker died with it. */
  attempts: Schema.Int,
  /** What the applied sync did; null until it succeeded. */
  report: Schema.NullOr(StoreSyncReport),
  /** Why it failed; null unless failed. */
  error: Schema.NullOr(Schema.String),
  /** The run queued after it. */
  runId: Schema.NullOr(RunId),
  /** Why no run was queued although one was asked for (a plan cap, for instance). */
  runRefused: Schema.NullOr(Schema.String)
})
export type StoreSyncJob = typeof StoreSyncJob.Type

export const isActiveSyncJob = (job: StoreSyncJob): boolean => job.status === "queued" || job.status === "running"

/** A sync as it is queued: nothing of it done yet. */
export const queuedSyncJob = (
  queued: Pick<StoreSyncJob, "id" | "workspaceId" | "trigger" | "slotAt" | "runAfterSync" | "actor" | "createdAt">
): StoreSyncJob => ({
  ...queued,
  status: "queued",
  startedAt: null,
  finishedAt: null,
  attempts: 0,
  report: null,
  error: null,
  runId: null,
  runRefused: null
})
