/**
 * Syncs on demand and on schedule over a set of adapters (memory, PostgreSQL) and a scripted store:
 * StoreSyncJobs (asked for, executed, taken over) and SyncSchedules (set, slots queued once, the
 * grace window, the workspaces a slot is never queued for).
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Exit, type Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import type { Actor } from "../access/Actor.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import { RunRepository } from "../runs/RunRepository.ts"
import { Runs } from "../runs/Runs.ts"
import { type SyncScheduleInput, SyncSchedules } from "../schedules/SyncSchedules.ts"
import type { ZoneRules } from "../schedules/ZoneRules.ts"
import { StoreConnectionRepository } from "../stores/StoreConnectionRepository.ts"
import type { StoreSyncJob } from "../stores/StoreSyncJob.ts"
import { StoreSyncJobRepository } from "../stores/StoreSyncJobRepository.ts"
import { StoreSyncJobs } from "../stores/StoreSyncJobs.ts"
import type { StoreVariant } from "../stores/StoreVariant.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { aStoreConnection, usd } from "./Fixtures.ts"
import { ScriptedStoreCatalog } from "./ScriptedStoreCatalog.ts"
import { seedWorkspace } from "./Seed.ts"

export type ScheduledSyncSuiteServices =
  | StoreSyncJobs
  | SyncSchedules
  | Runs
  | RunRepository
  | StoreSyncJobRepository
  | ScriptedStoreCatalog
  | StoreConnectionRepository
  | WorkspaceRepository
  | IdGenerator
  | ZoneRules

const merchant: Actor = { _tag: "SystemActor", name: "suite" }
const hour = 3_600_000
const minute = 60_000

const variant = (n: number): StoreVariant => ({
  sku: `S-${n}`,
  variantRef: `gid://shopify/ProductVariant/${n}`,
  productRef: `gid://shopify/Product/${n}`,
  title: `Mug ${n}`,
  currency: usd,
  price: "12.00",
  compareAtPrice: null,
  cost: "5.00",
  inventory: 7,
  tags: ["kitchen"],
  productType: "Mugs",
  status: "ACTIVE"
})

/** A connected workspace (plan max: runs are not capped) whose store holds three variants. */
const connectedShop = Effect.fnUntraced(function* () {
  const workspace = yield* seedWorkspace({ plan: "max" })
  yield* StoreConnectionRepository.use((connections) =>
    connections.connect(aStoreConnection({ workspaceId: workspace.id, platform: "shopify", shop: "acme" }), "token")
  )
  yield* ScriptedStoreCatalog.use((store) =>
    store.put(
      workspace.id,
      [1, 2, 3].map((n) => ({ variant: variant(n), updatedAt: 0 }))
    )
  )
  return workspace
})

/** Executes every sync due, as `owner`, and answers them. */
const executeAll = (owner: string) =>
  Effect.gen(function* () {
    const done: Array<StoreSyncJob> = []
    for (;;) {
      const next = yield* StoreSyncJobs.use((jobs) => jobs.executeNext(owner))
      if (Option.isNone(next)) return done
      done.push(next.value)
    }
  })

const mine = (workspaceId: WorkspaceId, jobs: ReadonlyArray<StoreSyncJob>) =>
  jobs.filter((job) => job.workspaceId === workspaceId)

const dailyAt = (hourOfDay: number, timeZone = "UTC"): SyncScheduleInput => ({
  cadence: "daily",
  weekday: null,
  hour: hourOfDay,
  timeZone,
  runAfterSync: true
})

const setSchedule = (workspaceId: WorkspaceId, input: SyncScheduleInput) =>
  SyncSchedules.use((schedules) => schedules.set(workspaceId, input, merchant))

const queueDue = SyncSchedules.use((schedules) => schedules.queueDue())

/** 2026-12-07 (a Monday) at `h` UTC. */
const monday = (h: number, m = 0) => Date.UTC(2026, 11, 7, h, m)

export const scheduledSyncSuite = <E>(name: string, services: Layer.Layer<ScheduledSyncSuiteServices, E>) =>
  layer(services, { timeout: 120_000 })(`Scheduled and on-demand store syncs (${name})`, (it) => {
    it.effect("a sync asked for is queued once, executed by a worker, and reports what it did", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(monday(9))
        yield* executeAll("drain")
        const workspace = yield* connectedShop()
        const jobs = yield* StoreSyncJobs
        const asked = yield* jobs.request(workspace.id, merchant)
        assert.deepStrictEqual(
          [asked.status, asked.trigger, asked.slotAt, asked.runAfterSync],
          ["queued", "manual", null, false]
        )
        // Asked again while it waits: the same sync.
        assert.strictEqual((yield* jobs.request(workspace.id, merchant)).id, asked.id)
        const done = mine(workspace.id, yield* executeAll("worker-a"))
        assert.deepStrictEqual(
          done.map((job) => [job.id, job.status, job.attempts, job.report?.summary.created, job.runId]),
          [[asked.id, "succeeded", 1, 3, null]]
        )
        assert.deepStrictEqual(yield* jobs.get(workspace.id, asked.id), done[0])
        assert.deepStrictEqual(yield* jobs.latest(workspace.id), Option.some(done[0]))
        // Once it ended, a new request queues a new sync.
        assert.notStrictEqual((yield* jobs.request(workspace.id, merchant)).id, asked.id)
        yield* executeAll("worker-a")
        const other = yield* seedWorkspace()
        const notFound = yield* Effect.exit(jobs.get(other.id, asked.id))
        assert.isTrue(Exit.isFailure(notFound))
      })
    )

    it.effect("a workspace without a connected store cannot ask for a sync", () =>
      Effect.gen(function* () {
        const workspace = yield* seedWorkspace()
        const refused = yield* Effect.flip(StoreSyncJobs.use((jobs) => jobs.request(workspace.id, merchant)))
        assert.strictEqual(refused._tag, "NoCommerceIntegration")
      })
    )

    it.effect("a sync the store fails is failed with the reason, and queues no run", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(monday(9))
        yield* executeAll("drain")
        const workspace = yield* connectedShop()
        yield* ScriptedStoreCatalog.use((store) => store.failNext(workspace.id, "ready", { restart: false }))
        yield* StoreSyncJobs.use((jobs) => jobs.request(workspace.id, merchant))
        const [failed] = mine(workspace.id, yield* executeAll("worker-a"))
        assert.deepStrictEqual(
          [failed?.status, failed?.error, failed?.runId],
          ["failed", "the store could not be read: scripted failure of ready", null]
        )
      })
    )

    it.effect("a schedule is checked: an IANA time zone, a weekday only and always for weekly", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(monday(9))
        const workspace = yield* seedWorkspace()
        const errorOf = (input: SyncScheduleInput) =>
          Effect.map(Effect.flip(setSchedule(workspace.id, input)), (error) =>
            error._tag === "InvalidInput" ? error.path : error._tag
          )
        assert.strictEqual(yield* errorOf(dailyAt(3, "Mars/Olympus_Mons")), "time_zone")
        assert.strictEqual(yield* errorOf(dailyAt(24)), "hour")
        assert.strictEqual(yield* errorOf({ ...dailyAt(3), cadence: "weekly" }), "weekday")
        assert.strictEqual(yield* errorOf({ ...dailyAt(3), weekday: "monday" }), "weekday")
        const before = yield* SyncSchedules.use((schedules) => schedules.get(workspace.id))
        assert.deepStrictEqual([before.schedule.cadence, before.nextSlotAt], ["off", null])
        // The zone is stored under its canonical name; the next slot is 03:00 in Berlin (UTC+1).
        const set = yield* setSchedule(workspace.id, {
          ...dailyAt(3, "europe/berlin"),
          cadence: "weekly",
          weekday: "tuesday"
        })
        assert.deepStrictEqual([set.schedule.timeZone, set.nextSlotAt], ["Europe/Berlin", Date.UTC(2026, 11, 8, 2)])
        assert.deepStrictEqual(yield* SyncSchedules.use((schedules) => schedules.get(workspace.id)), set)
      })
    )

    it.effect("a slot is queued once, however many workers look; its sync is followed by a scheduled run", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(monday(1))
        yield* executeAll("drain")
        const workspace = yield* connectedShop()
        yield* setSchedule(workspace.id, dailyAt(3))
        yield* TestClock.setTime(monday(2, 59))
        assert.deepStrictEqual(mine(workspace.id, yield* queueDue), [])
        yield* TestClock.setTime(monday(3))
        // Two workers at the slot: one queues it.
        const [first, second] = yield* Effect.all([queueDue, queueDue], { concurrency: 2 })
        const queued = mine(workspace.id, [...(first ?? []), ...(second ?? [])])
        assert.deepStrictEqual(
          queued.map((job) => [job.trigger, job.slotAt, job.runAfterSync]),
          [["schedule", monday(3), true]]
        )
        yield* TestClock.setTime(monday(3, 1))
        assert.deepStrictEqual(mine(workspace.id, yield* queueDue), [])
        const [done] = mine(workspace.id, yield* executeAll("worker-a"))
        assert.strictEqual(done?.status, "succeeded")
        const runId = done?.runId ?? null
        assert.isNotNull(runId)
        if (runId === null) return
        const run = yield* RunRepository.use((runs) => runs.get(workspace.id, runId))
        assert.deepStrictEqual(
          Option.map(run, (r) => [r.trigger, r.requestedBy]),
          Option.some(["schedule", "system:schedule"])
        )
        // The next day's slot is the next one.
        yield* TestClock.setTime(monday(3) + 24 * hour)
        assert.deepStrictEqual(
          mine(workspace.id, yield* queueDue).map((job) => job.slotAt),
          [monday(3) + 24 * hour]
        )
        yield* executeAll("worker-a")
      })
    )

    it.effect("no run follows the sync when the schedule does not ask for one", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(monday(1))
        yield* executeAll("drain")
        const workspace = yield* connectedShop()
        yield* setSchedule(workspace.id, { ...dailyAt(3), runAfterSync: false })
        yield* TestClock.setTime(monday(3, 5))
        yield* queueDue
        const [done] = mine(workspace.id, yield* executeAll("worker-a"))
        assert.deepStrictEqual([done?.status, done?.runId], ["succeeded", null])
      })
    )

    it.effect("a slot missed while no worker ran is queued once within the grace window, and skipped after it", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(monday(1))
        yield* executeAll("drain")
        const late = yield* connectedShop()
        const tooLate = yield* connectedShop()
        yield* setSchedule(late.id, dailyAt(3))
        yield* setSchedule(tooLate.id, dailyAt(2))
        // Workers come back at 08:30: 03:00 is 5.5 hours late (queued), 02:00 6.5 hours (skipped).
        yield* TestClock.setTime(monday(8, 30))
        const queued = yield* queueDue
        assert.deepStrictEqual(
          mine(late.id, queued).map((job) => job.slotAt),
          [monday(3)]
        )
        assert.deepStrictEqual(mine(tooLate.id, queued), [])
        assert.deepStrictEqual(mine(late.id, yield* queueDue), [])
        yield* executeAll("worker-a")
      })
    )

    it.effect("a slot that came before the schedule was saved does not run", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(monday(3, 30))
        yield* executeAll("drain")
        const workspace = yield* connectedShop()
        yield* setSchedule(workspace.id, dailyAt(3))
        assert.deepStrictEqual(mine(workspace.id, yield* queueDue), [])
      })
    )

    it.effect("never queues for a disconnected store or a suspended workspace", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(monday(1))
        yield* executeAll("drain")
        const disconnected = yield* connectedShop()
        const suspended = yield* connectedShop()
        yield* setSchedule(disconnected.id, dailyAt(3))
        yield* setSchedule(suspended.id, dailyAt(3))
        yield* StoreConnectionRepository.use((connections) => connections.disconnect(disconnected.id))
        yield* WorkspaceRepository.use((workspaces) => workspaces.setLifecycleState(suspended.id, "suspended"))
        yield* TestClock.setTime(monday(3, 1))
        const queued = yield* queueDue
        assert.deepStrictEqual([...mine(disconnected.id, queued), ...mine(suspended.id, queued)], [])
      })
    )

    it.effect("a sync whose worker died is taken over once its lease runs out, and queues one run", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(monday(1))
        yield* executeAll("drain")
        const workspace = yield* connectedShop()
        yield* setSchedule(workspace.id, dailyAt(3))
        yield* TestClock.setTime(monday(3))
        const [queued] = mine(workspace.id, yield* queueDue)
        assert.isDefined(queued)
        if (queued === undefined) return
        // Worker "dead" takes it, queues the run and dies before recording anything.
        const claimed = yield* StoreSyncJobRepository.use((jobs) => jobs.claim("dead", monday(3), 10 * minute))
        assert.strictEqual(Option.map(claimed, (job) => job.id).pipe(Option.getOrNull), queued.id)
        const early = yield* Runs.use((runs) =>
          runs.trigger(
            workspace.id,
            [],
            "schedule",
            { _tag: "SystemActor", name: "schedule" },
            {
              idempotencyKey: `store-sync:${queued.id}`
            }
          )
        )
        // Within the lease nobody else takes it.
        yield* TestClock.setTime(monday(3, 5))
        assert.deepStrictEqual(mine(workspace.id, yield* executeAll("worker-b")), [])
        yield* TestClock.setTime(monday(3, 11))
        const [taken] = mine(workspace.id, yield* executeAll("worker-b"))
        assert.deepStrictEqual(
          [taken?.id, taken?.status, taken?.attempts, taken?.startedAt, taken?.runId],
          [queued.id, "succeeded", 2, monday(3), early.id]
        )
      })
    )
  })
