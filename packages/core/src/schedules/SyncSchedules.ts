import { Clock, Context, Effect, Layer, Option } from "effect"
import { type Actor, actorLabel } from "../access/Actor.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { InvalidInput, type RepositoryError } from "../kernel/Errors.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { StoreSyncId, type WorkspaceId } from "../kernel/Ids.ts"
import { StoreConnectionRepository } from "../stores/StoreConnectionRepository.ts"
import { queuedSyncJob, type StoreSyncJob } from "../stores/StoreSyncJob.ts"
import { StoreSyncJobRepository } from "../stores/StoreSyncJobRepository.ts"
import { scheduleActor } from "../stores/StoreSyncJobs.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { latestSlot, nextSlot } from "./ScheduleSlots.ts"
import { type Cadence, defaultSchedule, type SyncSchedule, type Weekday } from "./SyncSchedule.ts"
import { SyncScheduleRepository } from "./SyncScheduleRepository.ts"
import { ZoneRules } from "./ZoneRules.ts"

/** What a merchant sets. */
export interface SyncScheduleInput {
  readonly cadence: Cadence
  /** Required for `weekly`, refused otherwise. */
  readonly weekday: Weekday | null
  readonly hour: number
  readonly timeZone: string
  readonly runAfterSync: boolean
}

/** A schedule with its next slot (null when off). */
export interface ScheduleView {
  readonly schedule: SyncSchedule
  readonly nextSlotAt: number | null
}

export interface SyncSchedulesOptions {
  /**
   * How late a slot may still be queued: a slot missed while no worker ran (a deploy, an outage) is
   * queued once when a worker comes back within this window, and skipped after it.
   */
  readonly graceMs: number
}

export const defaultSyncSchedulesOptions: SyncSchedulesOptions = { graceMs: 6 * 60 * 60 * 1000 }

/**
 * Each workspace's sync schedule (docs/stores.md, "Schedule"): read it, set it, and queue the syncs
 * whose slot has come (`queueDue`, which every worker calls; a workspace has one sync per slot, so a
 * slot is queued once across workers). A slot is queued only for a workspace whose store is connected
 * and which is not suspended, and never for a slot that came before the schedule was saved.
 */
export class SyncSchedules extends Context.Service<
  SyncSchedules,
  {
    readonly get: (workspaceId: WorkspaceId) => Effect.Effect<ScheduleView, RepositoryError>
    readonly set: (
      workspaceId: WorkspaceId,
      input: SyncScheduleInput,
      actor: Actor
    ) => Effect.Effect<ScheduleView, InvalidInput | RepositoryError>
    /** Queues the slots that have come; answers the syncs it queued. */
    readonly queueDue: () => Effect.Effect<ReadonlyArray<StoreSyncJob>, RepositoryError>
  }
>()("margin/core/SyncSchedules") {
  static readonly layerWith = ({ graceMs }: SyncSchedulesOptions) =>
    Layer.effect(
      SyncSchedules,
      Effect.gen(function* () {
        const schedules = yield* SyncScheduleRepository
        const zones = yield* ZoneRules
        const jobs = yield* StoreSyncJobRepository
        const connections = yield* StoreConnectionRepository
        const workspaces = yield* WorkspaceRepository
        const ids = yield* IdGenerator
        const audit = yield* AuditTrail

        const view = (schedule: SyncSchedule, now: number): ScheduleView => ({
          schedule,
          nextSlotAt: nextSlot(schedule, now, (instant) => zones.offsetAt(schedule.timeZone, instant))
        })

        const get = Effect.fn("SyncSchedules.get")(function* (workspaceId: WorkspaceId) {
          const stored = yield* schedules.get(workspaceId)
          return view(
            Option.getOrElse(stored, () => defaultSchedule(workspaceId)),
            yield* Clock.currentTimeMillis
          )
        })

        const set = Effect.fn("SyncSchedules.set")(function* (
          workspaceId: WorkspaceId,
          input: SyncScheduleInput,
          actor: Actor
        ) {
          const timeZone = zones.canonical(input.timeZone)
          if (timeZone === null) {
            return yield* new InvalidInput({
              path: "time_zone",
              message: `${JSON.stringify(input.timeZone)} is not an IANA time zone (e.g. Europe/Berlin, America/New_York, UTC)`
            })
          }
          if (!Number.isInteger(input.hour) || input.hour < 0 || input.hour > 23) {
            return yield* new InvalidInput({ path: "hour", message: "the hour is a whole number from 0 to 23" })
          }
          if (input.cadence === "weekly" && input.weekday === null) {
            return yield* new InvalidInput({ path: "weekday", message: "a weekly schedule needs its day of the week" })
          }
          if (input.cadence !== "weekly" && input.weekday !== null) {
            return yield* new InvalidInput({
              path: "weekday",
              message: "only a weekly schedule takes a day of the week"
            })
          }
          const now = yield* Clock.currentTimeMillis
          const schedule: SyncSchedule = {
            workspaceId,
            cadence: input.cadence,
            weekday: input.weekday,
            hour: input.hour,
            timeZone,
            runAfterSync: input.runAfterSync,
            updatedAt: now,
            updatedBy: actorLabel(actor)
          }
          yield* schedules.save(schedule)
          yield* audit.record({
            workspaceId,
            actor: schedule.updatedBy,
            action: "store.schedule",
            resourceType: "sync_schedule",
            resourceId: workspaceId,
            beforeStatus: null,
            afterStatus:
              schedule.cadence === "off"
                ? "off"
                : `${schedule.cadence}${schedule.weekday === null ? "" : ` ${schedule.weekday}`} ${schedule.hour}:00 ${timeZone}${schedule.runAfterSync ? ", then a run" : ""}`,
            at: now
          })
          return view(schedule, now)
        })

        /** The slot of `schedule` to queue now, if one has come within the grace window since it was saved. */
        const dueSlot = (schedule: SyncSchedule, now: number): number | null => {
          const slot = latestSlot(schedule, now, (instant) => zones.offsetAt(schedule.timeZone, instant))
          return slot !== null && slot > schedule.updatedAt && now - slot <= graceMs ? slot : null
        }

        const queueOne = Effect.fnUntraced(function* (schedule: SyncSchedule, slotAt: number, now: number) {
          const workspace = yield* workspaces.get(schedule.workspaceId)
          if (Option.isNone(workspace) || workspace.value.lifecycleState === "suspended") return Option.none()
          const connection = yield* connections.get(schedule.workspaceId)
          if (Option.isNone(connection) || connection.value.status !== "connected") return Option.none()
          const job = queuedSyncJob({
            id: StoreSyncId.make(yield* ids.next("storeSync")),
            workspaceId: schedule.workspaceId,
            trigger: "schedule",
            slotAt,
            runAfterSync: schedule.runAfterSync,
            actor: scheduleActor,
            createdAt: now
          })
          return (yield* jobs.insert(job)) ? Option.some(job) : Option.none()
        })

        const queueDue = Effect.fn("SyncSchedules.queueDue")(function* () {
          const now = yield* Clock.currentTimeMillis
          const active = yield* schedules.listActive()
          const queued: Array<StoreSyncJob> = []
          for (const schedule of active) {
            const slot = dueSlot(schedule, now)
            if (slot === null) continue
            const job = yield* queueOne(schedule, slot, now)
            if (Option.isSome(job)) queued.push(job.value)
          }
          return queued
        })

        return SyncSchedules.of({ get, set, queueDue })
      })
    ).pipe(Layer.provide(AuditTrail.layer))

  static readonly layer = SyncSchedules.layerWith(defaultSyncSchedulesOptions)
}
