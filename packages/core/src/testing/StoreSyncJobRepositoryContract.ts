import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { emptyImportSummary } from "../catalog/CatalogImportSummary.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { RunId, StoreSyncId, TokenId, UserId, type WorkspaceId } from "../kernel/Ids.ts"
import { queuedSyncJob, type StoreSyncJob } from "../stores/StoreSyncJob.ts"
import { StoreSyncJobRepository } from "../stores/StoreSyncJobRepository.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { fixtureNow, minuteMs } from "./Fixtures.ts"
import { seedWorkspace } from "./Seed.ts"

export type StoreSyncJobContractServices = StoreSyncJobRepository | WorkspaceRepository | IdGenerator

const aJob = Effect.fnUntraced(function* (workspaceId: WorkspaceId, overrides: Partial<StoreSyncJob> = {}) {
  const id = StoreSyncId.make(yield* IdGenerator.use((ids) => ids.next("storeSync")))
  const job: StoreSyncJob = {
    ...queuedSyncJob({
      id,
      workspaceId,
      trigger: "manual",
      slotAt: null,
      runAfterSync: false,
      actor: { _tag: "SystemActor", name: "contract" },
      createdAt: fixtureNow
    }),
    ...overrides
  }
  return job
})

/**
 * The StoreSyncJobRepository port's contract: every adapter must pass it. Claims are global (every
 * workspace's syncs), so each test drains what it queued before it asserts on a claim.
 */
export const storeSyncJobRepositoryContract = <E>(
  name: string,
  services: Layer.Layer<StoreSyncJobContractServices, E>
) =>
  layer(services)(`StoreSyncJobRepository contract (${name})`, (it) => {
    it.effect("inserts, reads by workspace, and answers the newest and the active sync", () =>
      Effect.gen(function* () {
        const repository = yield* StoreSyncJobRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const done = yield* aJob(workspace.id, {
          status: "succeeded",
          createdAt: fixtureNow,
          startedAt: fixtureNow,
          finishedAt: fixtureNow + 1000,
          attempts: 1,
          actor: { _tag: "TokenActor", tokenId: TokenId.make("tok_1"), userId: UserId.make("usr_1") },
          runId: RunId.make("run_1"),
          report: {
            trigger: "manual",
            full: true,
            startedAt: fixtureNow,
            finishedAt: fixtureNow + 1000,
            requestedBy: "token:tok_1",
            summary: { ...emptyImportSummary, created: 1 }
          }
        })
        assert.isTrue(yield* repository.insert(done))
        assert.deepStrictEqual(yield* repository.get(workspace.id, done.id), Option.some(done))
        assert.isTrue(Option.isNone(yield* repository.get(other.id, done.id)))
        assert.isTrue(Option.isNone(yield* repository.active(workspace.id)))
        const queued = yield* aJob(workspace.id, { createdAt: fixtureNow + minuteMs })
        yield* repository.insert(queued)
        assert.deepStrictEqual(yield* repository.latest(workspace.id), Option.some(queued))
        assert.deepStrictEqual(yield* repository.active(workspace.id), Option.some(queued))
        assert.isTrue(Option.isNone(yield* repository.latest(other.id)))
      })
    )

    it.effect("has one sync per workspace and slot", () =>
      Effect.gen(function* () {
        const repository = yield* StoreSyncJobRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const slot = fixtureNow - 60 * minuteMs
        assert.isTrue(yield* repository.insert(yield* aJob(workspace.id, { trigger: "schedule", slotAt: slot })))
        assert.isFalse(yield* repository.insert(yield* aJob(workspace.id, { trigger: "schedule", slotAt: slot })))
        assert.isTrue(yield* repository.insert(yield* aJob(other.id, { trigger: "schedule", slotAt: slot })))
        assert.isTrue(yield* repository.insert(yield* aJob(workspace.id, { trigger: "schedule", slotAt: slot + 1 })))
        // Syncs asked for have no slot, and any number of them can be stored.
        assert.isTrue(yield* repository.insert(yield* aJob(workspace.id)))
        assert.isTrue(yield* repository.insert(yield* aJob(workspace.id)))
      })
    )

    it.effect(
      "claims the oldest queued sync once, takes back one whose lease ran out, and finishes under the lease",
      () =>
        Effect.gen(function* () {
          const repository = yield* StoreSyncJobRepository
          // Far in the future, so that the syncs other tests left behind are claimed first and drained.
          const now = fixtureNow + 1000 * 24 * 60 * minuteMs
          const drain = (owner: string) =>
            Effect.gen(function* () {
              // Held for a year: none of them comes back within the test.
              while (Option.isSome(yield* repository.claim(owner, now, 365 * 24 * 60 * minuteMs))) {
                // Drained.
              }
            })
          yield* drain("drainer")
          const workspace = yield* seedWorkspace()
          const first = yield* aJob(workspace.id, { createdAt: now - 2 })
          const second = yield* aJob(workspace.id, { createdAt: now - 1 })
          yield* repository.insert(second)
          yield* repository.insert(first)
          const claimed = yield* repository.claim("a", now, minuteMs)
          assert.deepStrictEqual(
            Option.map(claimed, (job) => ({
              id: job.id,
              status: job.status,
              startedAt: job.startedAt,
              attempts: job.attempts
            })),
            Option.some({ id: first.id, status: "running" as const, startedAt: now, attempts: 1 })
          )
          const next = yield* repository.claim("b", now, minuteMs)
          assert.deepStrictEqual(
            Option.map(next, (job) => job.id),
            Option.some(second.id)
          )
          assert.isTrue(Option.isNone(yield* repository.claim("c", now + 1000, minuteMs)))
          // "a" died: its lease runs out and "c" takes the sync again, its first start kept.
          const later = now + 2 * minuteMs
          const retaken = yield* repository.claim("c", later, minuteMs)
          assert.deepStrictEqual(
            Option.map(retaken, (job) => ({ id: job.id, startedAt: job.startedAt, attempts: job.attempts })),
            Option.some({ id: first.id, startedAt: now, attempts: 2 })
          )
          if (Option.isNone(retaken)) return
          const ended: StoreSyncJob = {
            ...retaken.value,
            status: "failed",
            finishedAt: later,
            error: "store unavailable"
          }
          assert.isFalse(yield* repository.finish(ended, "a"))
          assert.isTrue(yield* repository.finish(ended, "c"))
          assert.deepStrictEqual(yield* repository.get(workspace.id, first.id), Option.some(ended))
          assert.isFalse(yield* repository.finish(ended, "c"))
          yield* drain("drainer")
        })
    )
  })
