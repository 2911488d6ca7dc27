import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import type { SyncSchedule } from "../schedules/SyncSchedule.ts"
import { SyncScheduleRepository } from "../schedules/SyncScheduleRepository.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { fixtureNow } from "./Fixtures.ts"
import { seedWorkspace } from "./Seed.ts"

export type SyncScheduleContractServices = SyncScheduleRepository | WorkspaceRepository | IdGenerator

/** The SyncScheduleRepository port's contract: every adapter must pass it. */
export const syncScheduleRepositoryContract = <E>(
  name: string,
  services: Layer.Layer<SyncScheduleContractServices, E>
) =>
  layer(services)(`SyncScheduleRepository contract (${name})`, (it) => {
    it.effect("saves a schedule, replaces it, and lists only the ones that are not off", () =>
      Effect.gen(function* () {
        const repository = yield* SyncScheduleRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        assert.isTrue(Option.isNone(yield* repository.get(workspace.id)))
        const weekly: SyncSchedule = {
          workspaceId: workspace.id,
          cadence: "weekly",
          weekday: "tuesday",
          hour: 5,
          timeZone: "Europe/Berlin",
          runAfterSync: true,
          updatedAt: fixtureNow,
          updatedBy: "user:usr_1"
        }
        yield* repository.save(weekly)
        assert.deepStrictEqual(yield* repository.get(workspace.id), Option.some(weekly))
        const daily: SyncSchedule = { ...weekly, cadence: "daily", weekday: null, hour: 23, runAfterSync: false }
        yield* repository.save(daily)
        assert.deepStrictEqual(yield* repository.get(workspace.id), Option.some(daily))
        yield* repository.save({ ...daily, workspaceId: other.id, cadence: "off" })
        const active = (yield* repository.listActive()).filter(
          (schedule) => schedule.workspaceId === workspace.id || schedule.workspaceId === other.id
        )
        assert.deepStrictEqual(active, [daily])
      })
    )
  })
