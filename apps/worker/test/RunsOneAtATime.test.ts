import { assert, describe, it } from "@effect/vitest"
import type { WorkspaceId } from "@margin/core/kernel/Ids"
import type { Run } from "@margin/core/runs/Run"
import { Runs } from "@margin/core/runs/Runs"
import { seedWorkspace } from "@margin/core/testing/Seed"
import { startWorker } from "@margin/runtime/testing/ChildProcesses"
import { aMixedCatalog, finished, importItems } from "@margin/runtime/testing/RunWorld"
import * as ScratchDatabase from "@margin/runtime/testing/ScratchDatabase"
import { Duration, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Two worker processes and three queued runs, two of them of one workspace, on PostgreSQL: the
 * workspace's runs execute one after the other (the second supersedes what the first left open),
 * never two open recommendations for one item, while the other workspace's run executes beside
 * them on the other worker.
 */

const system = { _tag: "SystemActor", name: "run tests" } as const

const workerEnv = (url: string) => ({
  DATABASE_URL: url,
  RUN_WORKER_CONCURRENCY: "1",
  RUN_POLL_INTERVAL: "50 millis"
})

const overlap = (a: Run, b: Run) => (a.startedAt ?? 0) < (b.finishedAt ?? 0) && (b.startedAt ?? 0) < (a.finishedAt ?? 0)

describe("runs of one workspace, two worker processes", () => {
  it.live(
    "execute one after the other, leave one open recommendation per item; another workspace's run executes meanwhile",
    () =>
      Effect.gen(function* () {
        const database = yield* ScratchDatabase.ScratchDatabase
        const sql = yield* SqlClient.SqlClient
        const busy = (yield* seedWorkspace({ plan: "enterprise" })).id
        const other = (yield* seedWorkspace({ plan: "enterprise" })).id
        // Enough items that a run spans many chunks and lasts while the other worker claims.
        yield* importItems(busy, aMixedCatalog(20_000))
        yield* importItems(other, aMixedCatalog(20_000))
        // Both workers poll before anything is queued: whichever claims first, the other is there.
        yield* Effect.all(
          [startWorker("worker-one", workerEnv(database.url)), startWorker("worker-two", workerEnv(database.url))],
          {
            concurrency: "unbounded"
          }
        )
        const trigger = (workspaceId: WorkspaceId) => Runs.use((runs) => runs.trigger(workspaceId, [], "api", system))
        const first = yield* trigger(busy)
        const second = yield* trigger(busy)
        const beside = yield* trigger(other)
        const [firstDone, secondDone, besideDone] = yield* Effect.all(
          [first, second, beside].map((run) => finished(run.workspaceId, run.id, Duration.seconds(120))),
          { concurrency: "unbounded" }
        )
        if (firstDone === undefined || secondDone === undefined || besideDone === undefined) {
          return assert.fail("three runs")
        }
        assert.deepStrictEqual(
          [firstDone.status, secondDone.status, besideDone.status],
          ["succeeded", "succeeded", "succeeded"]
        )
        assert.isAtLeast(
          secondDone.startedAt ?? 0,
          firstDone.finishedAt ?? Number.POSITIVE_INFINITY,
          "one after the other"
        )
        assert.isTrue(
          overlap(besideDone, firstDone) || overlap(besideDone, secondDone),
          "the other workspace's run executed beside them"
        )

        const [doubled] = yield* sql<{ readonly items: number }>`
          SELECT count(*)::int AS items FROM (
            SELECT item_id FROM recommendations
            WHERE workspace_id IN (${busy}, ${other}) AND status IN ('new', 'pending_approval')
            GROUP BY workspace_id, item_id HAVING count(*) > 1
          ) doubled`
        assert.deepStrictEqual(doubled, { items: 0 }, "no item with two open recommendations")
        const byRun = yield* sql<{
          readonly run: string
          readonly status: string
          readonly by: string | null
          readonly count: number
        }>`
          SELECT run_id AS run, status, superseded_by_run_id AS by, count(*)::int AS count FROM recommendations
          WHERE workspace_id = ${busy} GROUP BY run_id, status, superseded_by_run_id ORDER BY run_id, status`
        assert.isAbove(firstDone.recommendationsCount, 0)
        assert.sameDeepMembers(
          [...byRun],
          [
            { run: first.id, status: "superseded", by: second.id, count: firstDone.recommendationsCount },
            { run: second.id, status: "new", by: null, count: secondDone.recommendationsCount }
          ]
        )
      }).pipe(Effect.scoped, Effect.provide(Runs.layer.pipe(Layer.provideMerge(ScratchDatabase.layer)))),
    { timeout: 300_000 }
  )
})
