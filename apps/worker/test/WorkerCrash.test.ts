import { assert, describe, it } from "@effect/vitest"
import { CatalogRepository } from "@margin/core/catalog/CatalogRepository"
import { eventually } from "@margin/jobs/testing/Eventually"
import { PgSandboxStore } from "@margin/postgres"
import {
  approveWithoutDelivery,
  recommendationOf,
  seedApprovalWorkspace,
  seedPendingRecommendations,
  writeBackOf
} from "@margin/runtime/testing/ApprovalWorld"
import { spawnNode, startWorker, workerMain } from "@margin/runtime/testing/ChildProcesses"
import * as ScratchDatabase from "@margin/runtime/testing/ScratchDatabase"
import { Duration, Effect, Option } from "effect"

describe("a worker killed with kill -9 in the middle of a delivery", () => {
  it.live(
    "after the store accepted the write and before it was recorded: a restarted worker ends it applied, with one store write",
    () =>
      Effect.gen(function* () {
        const database = yield* ScratchDatabase.ScratchDatabase
        const { workspaceId } = yield* seedApprovalWorkspace()
        const [recommendation] = yield* seedPendingRecommendations(workspaceId, 1)
        if (recommendation === undefined) return yield* Effect.die("seeded no recommendation")
        yield* approveWithoutDelivery(workspaceId, recommendation.id)
        // A short lease: the row the dead worker held is due again two seconds after its claim.
        const env = { DATABASE_URL: database.url, WRITE_BACK_LEASE: "2 seconds", OUTBOX_POLL_INTERVAL: "50 millis" }

        // SANDBOX_CRASH_AFTER_WRITE: the worker SIGKILLs itself right after the store committed the write.
        const crashing = yield* spawnNode("worker-crashing", workerMain, { ...env, SANDBOX_CRASH_AFTER_WRITE: "true" })
        const crashed = yield* crashing.exited.pipe(Effect.timeout(Duration.seconds(60)), Effect.orDie)
        assert.strictEqual(crashed.signal, "SIGKILL", yield* crashing.output)
        assert.strictEqual((yield* PgSandboxStore.listWrites(workspaceId)).length, 1, "the store accepted the write")
        const unrecorded = yield* writeBackOf(workspaceId, recommendation.id)
        assert.strictEqual(unrecorded.status, "in_flight", "nothing was recorded after the write")
        assert.strictEqual(unrecorded.attempts, 1)
        assert.strictEqual((yield* recommendationOf(workspaceId, recommendation.id)).status, "approved")

        yield* startWorker("worker-restarted", env)
        yield* eventually(
          Effect.map(writeBackOf(workspaceId, recommendation.id), (writeBack) => writeBack.status === "applied"),
          "the write-back applied by the restarted worker",
          { within: Duration.seconds(20), every: Duration.millis(100) }
        )
        const applied = yield* writeBackOf(workspaceId, recommendation.id)
        assert.strictEqual(applied.attempts, 2, "delivered again once the lease ran out")
        const writes = yield* PgSandboxStore.listWrites(workspaceId)
        assert.strictEqual(writes.length, 1, "the second delivery found the new price and wrote nothing")
        assert.strictEqual((yield* recommendationOf(workspaceId, recommendation.id)).status, "applied")
        const item = yield* CatalogRepository.use((catalog) => catalog.get(workspaceId, recommendation.itemId))
        assert.strictEqual(Option.getOrNull(item)?.price, 1099, "the catalog price follows the store")
      }).pipe(Effect.scoped, Effect.provide(ScratchDatabase.layer)),
    { timeout: 120_000 }
  )
})
