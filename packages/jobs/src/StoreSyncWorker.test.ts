import { assert, describe, it } from "@effect/vitest"
import { AuditTrail } from "@margin/core/audit/AuditTrail"
import * as MemoryAdapters from "@margin/core/memory/MemoryAdapters"
import { RunRepository } from "@margin/core/runs/RunRepository"
import { Runs } from "@margin/core/runs/Runs"
import { SyncScheduleRepository } from "@margin/core/schedules/SyncScheduleRepository"
import { SyncSchedules } from "@margin/core/schedules/SyncSchedules"
import { ZoneRules } from "@margin/core/schedules/ZoneRules"
import { StoreConnectionRepository } from "@margin/core/stores/StoreConnectionRepository"
import { StoreSyncJobRepository } from "@margin/core/stores/StoreSyncJobRepository"
import { StoreSyncJobs } from "@margin/core/stores/StoreSyncJobs"
import { StoreSyncs } from "@margin/core/stores/StoreSyncs"
import { aStoreConnection, usd } from "@margin/core/testing/Fixtures"
import { ScriptedStoreCatalog } from "@margin/core/testing/ScriptedStoreCatalog"
import { seedWorkspace } from "@margin/core/testing/Seed"
import { tableZoneRules } from "@margin/core/testing/TableZones"
import { Clock, Duration, Effect, Exit, Layer, Option, References, Scope } from "effect"
import * as StoreSyncWorker from "./StoreSyncWorker.ts"
import { eventually } from "./testing/Eventually.ts"

const hour = 3_600_000

const useCases = Layer.mergeAll(StoreSyncJobs.layer, SyncSchedules.layer).pipe(
  Layer.provideMerge(Layer.mergeAll(StoreSyncs.layer.pipe(Layer.provide(AuditTrail.layer)), Runs.layer)),
  Layer.provideMerge(Layer.succeed(ZoneRules, ZoneRules.of(tableZoneRules()))),
  Layer.provideMerge(ScriptedStoreCatalog.layer),
  Layer.provideMerge(MemoryAdapters.layer),
  Layer.provideMerge(Layer.succeed(References.MinimumLogLevel, "Warn"))
)

const fast: StoreSyncWorker.StoreSyncWorkerOptions = {
  ...StoreSyncWorker.defaultStoreSyncWorkerOptions,
  pollInterval: Duration.millis(20),
  scheduleInterval: Duration.millis(20)
}

describe("StoreSyncWorker", () => {
  it.live(
    "three loops in two workers sync a slot that has come once, then queue one scheduled run; a sync asked for is done too",
    () =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const workspace = yield* seedWorkspace({ plan: "max" })
        yield* StoreConnectionRepository.use((connections) =>
          connections.connect(aStoreConnection({ workspaceId: workspace.id }), null)
        )
        yield* ScriptedStoreCatalog.use((store) =>
          store.put(workspace.id, [
            {
              updatedAt: 0,
              variant: { sku: "A-1", variantRef: "A-1", title: "Mug", currency: usd, price: "9.00" }
            }
          ])
        )
        // Daily at this UTC hour, saved two days ago: this hour's slot has come, minutes ago.
        yield* SyncScheduleRepository.use((schedules) =>
          schedules.save({
            workspaceId: workspace.id,
            cadence: "daily",
            weekday: null,
            hour: new Date(now).getUTCHours(),
            timeZone: "UTC",
            runAfterSync: true,
            updatedAt: now - 48 * hour,
            updatedBy: "user:usr_test"
          })
        )
        const scope = yield* Scope.make()
        yield* Layer.buildWithScope(StoreSyncWorker.layerWith({ ...fast, concurrency: 2 }), scope)
        yield* Layer.buildWithScope(StoreSyncWorker.layerWith(fast), scope)
        const jobs = yield* StoreSyncJobRepository
        yield* eventually(
          Effect.map(
            jobs.latest(workspace.id),
            Option.exists((job) => job.status === "succeeded")
          ),
          "the slot's sync done"
        )
        const asked = yield* StoreSyncJobs.use((syncs) =>
          syncs.request(workspace.id, { _tag: "SystemActor", name: "test" })
        )
        yield* eventually(
          Effect.map(
            jobs.get(workspace.id, asked.id),
            Option.exists((job) => job.status === "succeeded")
          ),
          "the sync asked for done"
        )
        // Several more rounds of every loop: the slot is not queued again.
        yield* Effect.sleep(Duration.millis(200))
        yield* Scope.close(scope, Exit.void)
        const runs = yield* RunRepository.use((repository) =>
          repository.list(workspace.id, { status: null }, { limit: 10, cursor: null })
        )
        assert.deepStrictEqual(
          runs.items.map((run) => [run.trigger, run.requestedBy]),
          [["schedule", "system:schedule"]]
        )
        const latest = yield* jobs.latest(workspace.id)
        assert.deepStrictEqual(
          Option.map(latest, (job) => [job.id, job.trigger, job.runId]),
          Option.some([asked.id, "manual", null])
        )
      }).pipe(Effect.provide(useCases))
  )
})
