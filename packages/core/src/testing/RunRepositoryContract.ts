import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { RunId } from "../kernel/Ids.ts"
import * as Outcome from "../kernel/Outcome.ts"
import type { Run, RunStatus } from "../runs/Run.ts"
import { RunRepository } from "../runs/RunRepository.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { aRun, dayMs, fixtureNow, minuteMs } from "./Fixtures.ts"
import { drainRuns } from "./Leases.ts"
import { assertPaging, createdAtKey } from "./PagingContract.ts"
import { expectSome, freshId, seedRun, seedWorkspace } from "./Seed.ts"

export type RunContractServices = RunRepository | WorkspaceRepository | IdGenerator

const start = (now: number) => (run: Run) =>
  run.status === "queued"
    ? Outcome.transitioned(run, { ...run, status: "running", startedAt: now })
    : Outcome.idempotentRepeat(run)

const claimedId = (claimed: Option.Option<Run>) => Option.getOrNull(Option.map(claimed, (run) => run.id))

/** The RunRepository port's contract: every adapter must pass it. */
export const runRepositoryContract = <E>(name: string, services: Layer.Layer<RunContractServices, E>) =>
  layer(services)(`RunRepository contract (${name})`, (it) => {
    it.effect("get finds a run in its own workspace only; a second insert of an id fails", () =>
      Effect.gen(function* () {
        const runs = yield* RunRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const run = yield* seedRun(workspace.id)
        assert.deepStrictEqual(yield* runs.get(workspace.id, run.id), Option.some(run))
        assert.isTrue(Option.isNone(yield* runs.get(other.id, run.id)))
        assert.isTrue(Option.isNone(yield* runs.get(workspace.id, yield* freshId("run", RunId.make))))
        const error = yield* Effect.flip(runs.insert(run))
        assert.strictEqual(error._tag, "RepositoryError")
      })
    )

    it.effect("find answers a run by id whatever its workspace", () =>
      Effect.gen(function* () {
        const runs = yield* RunRepository
        const workspace = yield* seedWorkspace()
        const run = yield* seedRun(workspace.id)
        assert.deepStrictEqual(yield* runs.find(run.id), Option.some(run))
        assert.isTrue(Option.isNone(yield* runs.find(RunId.make("run_missing"))))
      })
    )

    it.effect("list pages newest first, filters by status, stays in its workspace", () =>
      Effect.gen(function* () {
        const runs = yield* RunRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const statuses: ReadonlyArray<RunStatus> = ["queued", "succeeded", "succeeded", "failed", "succeeded"]
        const stored: Array<Run> = []
        for (const [index, status] of statuses.entries()) {
          stored.push(yield* seedRun(workspace.id, { status, createdAt: fixtureNow + (index % 2) * minuteMs }))
        }
        yield* seedRun(other.id)
        yield* assertPaging((page) => runs.list(workspace.id, { status: null }, page), createdAtKey, stored, 2)
        yield* assertPaging(
          (page) => runs.list(workspace.id, { status: "succeeded" }, page),
          createdAtKey,
          stored.filter((run) => run.status === "succeeded"),
          1
        )
      })
    )

    it.effect("update saves a transition with the version bumped; a repeat or a conflict saves nothing", () =>
      Effect.gen(function* () {
        const runs = yield* RunRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const run = yield* seedRun(workspace.id)
        const now = fixtureNow + minuteMs
        assert.isTrue(Option.isNone(yield* runs.update(other.id, run.id, start(now))))
        const outcome = yield* expectSome(yield* runs.update(workspace.id, run.id, start(now)), "an outcome")
        assert.strictEqual(outcome._tag, "Transitioned")
        const started = yield* expectSome(yield* runs.get(workspace.id, run.id), "the run")
        assert.strictEqual(started.status, "running")
        assert.strictEqual(started.startedAt, now)
        assert.strictEqual(started.version, run.version + 1)
        const repeat = yield* runs.update(workspace.id, run.id, start(now + minuteMs))
        assert.strictEqual(Option.getOrUndefined(repeat)?._tag, "IdempotentRepeat")
        const conflict = yield* runs.update(workspace.id, run.id, (current) =>
          Outcome.conflict({ ...current, status: "cancelled" }, "a running run is not cancelled")
        )
        assert.strictEqual(Option.getOrUndefined(conflict)?._tag, "Conflict")
        assert.deepStrictEqual(yield* runs.get(workspace.id, run.id), Option.some(started))
      })
    )

    it.effect("recordProgress writes the counters of the workspace's running run only", () =>
      Effect.gen(function* () {
        const runs = yield* RunRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const run = yield* seedRun(workspace.id, { status: "running", startedAt: fixtureNow })
        const progress = { itemsTotal: 120, itemsAnalysed: 60, recommendationsCount: 7, alertsCount: 3 }
        yield* runs.recordProgress(other.id, run.id, progress)
        assert.deepStrictEqual(yield* runs.get(workspace.id, run.id), Option.some(run))
        yield* runs.recordProgress(workspace.id, run.id, progress)
        const stored = yield* expectSome(yield* runs.get(workspace.id, run.id), "the run")
        assert.deepStrictEqual(stored, { ...stored, ...progress })
        assert.strictEqual(stored.status, run.status)
      })
    )

    it.effect("recordProgress leaves the counters of a run that is not running", () =>
      Effect.gen(function* () {
        const runs = yield* RunRepository
        const workspace = yield* seedWorkspace()
        const progress = { itemsTotal: 9, itemsAnalysed: 9, recommendationsCount: 9, alertsCount: 9 }
        for (const status of ["queued", "succeeded", "failed", "cancelled"] as const) {
          const run = yield* seedRun(workspace.id, { status })
          yield* runs.recordProgress(workspace.id, run.id, progress)
          assert.deepStrictEqual(yield* runs.get(workspace.id, run.id), Option.some(run), status)
        }
      })
    )

    it.effect("countCreatedSince counts the workspace's runs created at or after the instant", () =>
      Effect.gen(function* () {
        const runs = yield* RunRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        for (const days of [-40, -1, 0, 3]) yield* seedRun(workspace.id, { createdAt: fixtureNow + days * dayMs })
        yield* seedRun(other.id, { createdAt: fixtureNow })
        assert.strictEqual(yield* runs.countCreatedSince(workspace.id, fixtureNow), 2)
        assert.strictEqual(yield* runs.countCreatedSince(workspace.id, fixtureNow - 30 * dayMs), 3)
      })
    )

    it.effect("claimNext takes the oldest queued run and holds it for the lease", () =>
      Effect.gen(function* () {
        const runs = yield* RunRepository
        yield* drainRuns
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        yield* seedRun(workspace.id, { status: "succeeded", createdAt: fixtureNow - 3 * minuteMs })
        yield* seedRun(workspace.id, { status: "cancelled", createdAt: fixtureNow - 2 * minuteMs })
        const second = yield* seedRun(other.id, { createdAt: fixtureNow + minuteMs })
        const first = yield* seedRun(workspace.id, { createdAt: fixtureNow })
        const now = fixtureNow + 10 * minuteMs
        const lease = now + minuteMs
        assert.strictEqual(claimedId(yield* runs.claimNext("worker-a", now, lease)), first.id)
        assert.strictEqual(claimedId(yield* runs.claimNext("worker-b", now, lease)), second.id)
        assert.isTrue(Option.isNone(yield* runs.claimNext("worker-c", now + 30_000, lease)))
      })
    )

    it.effect("a run whose lease ran out is claimed again; the old holder's heartbeat then fails", () =>
      Effect.gen(function* () {
        const runs = yield* RunRepository
        yield* drainRuns
        const workspace = yield* seedWorkspace()
        const run = yield* seedRun(workspace.id)
        const now = fixtureNow + 10 * minuteMs
        assert.strictEqual(claimedId(yield* runs.claimNext("worker-a", now, now + minuteMs)), run.id)
        yield* runs.update(workspace.id, run.id, start(now))
        assert.isTrue(yield* runs.heartbeat(run.id, "worker-a", now + 2 * minuteMs))
        assert.isTrue(Option.isNone(yield* runs.claimNext("worker-b", now + minuteMs, now + 5 * minuteMs)))
        const taken = yield* runs.claimNext("worker-b", now + 2 * minuteMs, now + 5 * minuteMs)
        assert.strictEqual(claimedId(taken), run.id)
        assert.strictEqual(Option.getOrUndefined(taken)?.status, "running")
        assert.isFalse(yield* runs.heartbeat(run.id, "worker-a", now + 9 * minuteMs))
        assert.isTrue(yield* runs.heartbeat(run.id, "worker-b", now + 9 * minuteMs))
      })
    )

    it.effect("a workspace's runs are held one at a time; other workspaces' runs are claimed meanwhile", () =>
      Effect.gen(function* () {
        const runs = yield* RunRepository
        yield* drainRuns
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const first = yield* seedRun(workspace.id, { createdAt: fixtureNow })
        const next = yield* seedRun(workspace.id, { createdAt: fixtureNow + 1 })
        const elsewhere = yield* seedRun(other.id, { createdAt: fixtureNow + 2 })
        const now = fixtureNow + 10 * minuteMs
        assert.strictEqual(claimedId(yield* runs.claimNext("worker-a", now, now + minuteMs)), first.id)
        assert.strictEqual(claimedId(yield* runs.claimNext("worker-b", now, now + 10 * minuteMs)), elsewhere.id)
        assert.isTrue(Option.isNone(yield* runs.claimNext("worker-c", now, now + minuteMs)), "the next run waits")
        yield* runs.update(workspace.id, first.id, start(now))
        // Its worker died: once the lease runs out, the held run is taken over; the next one still waits.
        const later = now + 2 * minuteMs
        assert.strictEqual(claimedId(yield* runs.claimNext("worker-c", later, later + minuteMs)), first.id)
        assert.isTrue(Option.isNone(yield* runs.claimNext("worker-d", later, later + minuteMs)))
        yield* runs.update(workspace.id, first.id, (run) =>
          Outcome.transitioned(run, { ...run, status: "succeeded", finishedAt: later })
        )
        assert.strictEqual(claimedId(yield* runs.claimNext("worker-d", later, later + minuteMs)), next.id)
      })
    )

    it.effect("a cancelled or failed run no longer holds its workspace", () =>
      Effect.gen(function* () {
        const runs = yield* RunRepository
        yield* drainRuns
        const workspace = yield* seedWorkspace()
        const cancelled = yield* seedRun(workspace.id, { createdAt: fixtureNow })
        const failed = yield* seedRun(workspace.id, { createdAt: fixtureNow + 1 })
        const last = yield* seedRun(workspace.id, { createdAt: fixtureNow + 2 })
        const now = fixtureNow + 10 * minuteMs
        assert.strictEqual(claimedId(yield* runs.claimNext("worker-a", now, now + minuteMs)), cancelled.id)
        yield* runs.update(workspace.id, cancelled.id, (run) =>
          Outcome.transitioned(run, { ...run, status: "cancelled" })
        )
        assert.strictEqual(claimedId(yield* runs.claimNext("worker-a", now, now + minuteMs)), failed.id)
        yield* runs.update(workspace.id, failed.id, (run) =>
          Outcome.transitioned(run, { ...run, status: "failed", error: "boom", finishedAt: now })
        )
        assert.strictEqual(claimedId(yield* runs.claimNext("worker-a", now, now + minuteMs)), last.id)
      })
    )

    it.effect("concurrent claimers hold one run of a workspace, and one of each other workspace", () =>
      Effect.gen(function* () {
        const runs = yield* RunRepository
        yield* drainRuns
        const busy = yield* seedWorkspace()
        const queued: Array<Run> = []
        for (let n = 0; n < 3; n++) queued.push(yield* seedRun(busy.id, { createdAt: fixtureNow + n }))
        const others: Array<Run> = []
        for (let n = 0; n < 2; n++) others.push(yield* seedRun((yield* seedWorkspace()).id, { createdAt: fixtureNow }))
        const now = fixtureNow + minuteMs
        const claims = yield* Effect.all(
          Array.from({ length: 8 }, (_, n) => runs.claimNext(`worker-${n}`, now, now + minuteMs)),
          { concurrency: "unbounded" }
        )
        const ids = claims.map(claimedId).filter((id) => id !== null)
        assert.sameMembers(ids, [queued[0]?.id, ...others.map((run) => run.id)])
      })
    )

    it.effect("concurrent claimers never hold the same run", () =>
      Effect.gen(function* () {
        const runs = yield* RunRepository
        yield* drainRuns
        for (let n = 0; n < 3; n++) yield* seedRun((yield* seedWorkspace()).id, { createdAt: fixtureNow + n })
        const now = fixtureNow + minuteMs
        const claims = yield* Effect.all(
          Array.from({ length: 6 }, (_, n) => runs.claimNext(`worker-${n}`, now, now + minuteMs)),
          { concurrency: "unbounded" }
        )
        const ids = claims.map(claimedId).filter((id) => id !== null)
        assert.strictEqual(ids.length, 3)
        assert.strictEqual(new Set(ids).size, 3)
      })
    )

    it.effect("a finished run is never claimed, whatever its lease", () =>
      Effect.gen(function* () {
        const runs = yield* RunRepository
        yield* drainRuns
        const workspace = yield* seedWorkspace()
        for (const status of ["succeeded", "failed", "cancelled"] as const) {
          yield* runs.insert(aRun({ id: yield* freshId("run", RunId.make), workspaceId: workspace.id, status }))
        }
        assert.isTrue(Option.isNone(yield* runs.claimNext("worker-a", fixtureNow, fixtureNow + minuteMs)))
      })
    )
  })
