import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import type { SyncSchedule } from "./SyncSchedule.ts"

/** Each workspace's sync schedule (one row per workspace that set one). */
export class SyncScheduleRepository extends Context.Service<
  SyncScheduleRepository,
  {
    readonly get: (workspaceId: WorkspaceId) => Effect.Effect<Option.Option<SyncSchedule>, RepositoryError>
    /** Creates or replaces the workspace's schedule. */
    readonly save: (schedule: SyncSchedule) => Effect.Effect<void, RepositoryError>
    /** Every schedule that is not off: what the scheduler looks at. */
    readonly listActive: () => Effect.Effect<ReadonlyArray<SyncSchedule>, RepositoryError>
  }
>()("margin/core/SyncScheduleRepository") {}
