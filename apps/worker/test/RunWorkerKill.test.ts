import { assert, describe, it } from "@effect/vitest"
import type { Run } from "@margin/core/runs/Run"
import { RunRepository } from "@margin/core/runs/RunRepository"
import { Runs } from "@margin/core/runs/Runs"
import { seedWorkspace } from "@margin/core/testing/Seed"
import { spawnNode, startWorker, workerMain } from "@margin/runtime/testing/ChildProcesses"
import { aMixedCatalog, assertExecutedOnce, importItems, recommendationsOf } from "@margin/runtime/testing/RunWorld"
import * as ScratchDatabase from "@margin/runtime/testing/ScratchDatabase"
import { Duration, Effect, Layer, Option, Schedule } from "effect"

/**
 * A worker process killed with kill -9 in the middle of a run, on PostgreSQL: the run stays
 * `running` under the dead worker's lease; once the lease has run out another worker process
 * claims it, executes it again from the start and finishes it, once, with every recommendation and
 * alert stored once.
 */

const items = 24_000
const system = { _tag: "SystemActor", name: "run tests" } as const

const catalog = aMixedCatalog(items)

// A short lease and quick beats: the dead worker's run is free again two seconds after its last beat.
const workerEnv = (url: string) => ({
  DATABASE_URL: url,
  RUN_LEASE: "2 seconds",
  RUN_HEARTBEAT: "300 millis",
  RUN_POLL_INTERVAL: "50 millis"
})

const runNow = (run: Run) =>
  RunRepository.use((runs) => runs.get(run.workspaceId, run.id)).pipe(
    Effect.flatMap(Option.match({ onNone: () => Effect.die(`no run ${run.id}`), onSome: Effect.succeed }))
  )

describe("a run worker killed with kill -9 in the middle of a run", () => {
  it.live(
    "another worker takes the run over once the lease has run out; it completes once, with no duplicates",
    () =>
      Effect.gen(function* () {
        const database = yield* ScratchDatabase.ScratchDatabase
        const workspace = yield* seedWorkspace({ plan: "enterprise" })
        yield* importItems(workspace.id, catalog)
        const queued = yield* Runs.use((runs) => runs.trigger(workspace.id, [], "api", system))

        const doomed = yield* spawnNode("worker-killed", workerMain, workerEnv(database.url))
        // Killed as soon as some chunks are stored and before the last one.
        const midway = yield* runNow(queued).pipe(
          Effect.flatMap((run) =>
            run.itemsAnalysed > 0 || run.status === "succeeded" ? Effect.succeed(run) : Effect.fail("not yet" as const)
          ),
          Effect.retry(Schedule.spaced(Duration.millis(10))),
          Effect.timeout(Duration.seconds(90)),
          Effect.orDie
        )
        yield* doomed.kill9
        const killed = yield* runNow(queued)
        assert.strictEqual(killed.status, "running", `killed too late: ${yield* doomed.output}`)
        assert.isAbove(killed.itemsAnalysed, 0)
        assert.isBelow(killed.itemsAnalysed, items, "the kill came before the last chunk")
        assert.isAtMost(midway.itemsAnalysed, killed.itemsAnalysed)

        const stored = yield* recommendationsOf(workspace.id, killed)
        assert.isAbove(stored.length, 0, "the dead worker had stored some chunks")

        const heir = yield* startWorker("worker-heir", workerEnv(database.url))
        const done = yield* runNow(queued).pipe(
          Effect.flatMap((run) => (run.status === "running" ? Effect.fail("not yet" as const) : Effect.succeed(run))),
          Effect.retry(Schedule.spaced(Duration.millis(100))),
          Effect.timeout(Duration.seconds(120)),
          Effect.orDie
        )
        assert.strictEqual(done.status, "succeeded", done.error ?? "")
        assert.deepStrictEqual([done.itemsTotal, done.itemsAnalysed], [items, items])
        assert.match(yield* heir.output, new RegExp(`run claimed.*${queued.id}`))

        yield* assertExecutedOnce(done)
        assert.isAbove(done.recommendationsCount, 0)
        assert.isAbove(done.alertsCount, 0)
        yield* heir.terminate()
      }).pipe(Effect.scoped, Effect.provide(Runs.layer.pipe(Layer.provideMerge(ScratchDatabase.layer)))),
    { timeout: 300_000 }
  )
})
