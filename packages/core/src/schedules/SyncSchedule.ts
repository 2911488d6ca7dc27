import { Schema } from "effect"
import { WorkspaceId } from "../kernel/Ids.ts"
import { Timestamp } from "../kernel/Timestamp.ts"

/** How often a workspace's store is synced by itself: never, every day, or one day a week. */
export const Cadence = Schema.Literals(["off", "daily", "weekly"])
export type Cadence = typeof Cadence.Type

/** ISO order: Monday first. */
export const weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const
export const Weekday = Schema.Literals(weekdays)
export type Weekday = typeof Weekday.Type

export const Hour = Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 23 })))

/**
 * A workspace's sync schedule (docs/stores.md, "Schedule"): at `hour` o'clock on the wall clock of
 * `timeZone` (an IANA name), every day or on `weekday`, the store is synced, then a run is queued
 * when `runAfterSync` says so. Slots that came before `updatedAt` never run: saving a schedule does
 * not reach back for the slot it has just passed.
 */
export const SyncSchedule = Schema.Struct({
  workspaceId: WorkspaceId,
  cadence: Cadence,
  /** Only for `weekly`; null otherwise. */
  weekday: Schema.NullOr(Weekday),
  hour: Hour,
  timeZone: Schema.String,
  runAfterSync: Schema.Boolean,
  updatedAt: Timestamp,
  updatedBy: Schema.String
})
export type SyncSchedule = typeof SyncSchedule.Type

/** What a workspace that never set a schedule has: no sync by itself. */
export const defaultSchedule = (workspaceId: WorkspaceId): SyncSchedule => ({
  workspaceId,
  cadence: "off",
  weekday: null,
  hour: 3,
  timeZone: "UTC",
  runAfterSync: true,
  updatedAt: 0,
  updatedBy: "system:default"
})
