import { assert, describe, it } from "@effect/vitest"
import { RepositoryError } from "@margin/core/kernel/Errors"
import type { Run } from "@margin/core/runs/Run"
import { RunExecutor } from "@margin/core/runs/RunExecutor"
import { RunRepository } from "@margin/core/runs/RunRepository"
import { Runs } from "@margin/core/runs/Runs"
import { auditOf, seedItem, seedWorkspace, systemActor, useCases, wsA } from "@margin/core/testing/UseCases"
import { Clock, Context, Duration, Effect, Exit, Layer, Logger, Option, Ref, Scope } from "effect"
import { defaultRunWorkerOptions, RunWorker, type RunWorkerOptions } from "./RunWorker.ts"
import { eventually } from "./testing/Eventually.ts"

const options = (overrides: Partial<RunWorkerOptions> = {}): RunWorkerOptions => ({
  ...defaultRunWorkerOptions,
  lease: Duration.seconds(1),
  heartbeat: Duration.millis(50),
  pollInterval: Duration.millis(10),
  maxErrorBackoff: Duration.millis(40),
  drainTimeout: Duration.seconds(2),
  ...overrides
})

/** Starts a run worker in a scope of its own, so a test can stop it as a shutdown would; its logs go nowhere. */
const startWorker = <R>(layer: Layer.Layer<RunWorker, never, R>) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(layer.pipe(Layer.provide(Logger.layer([]))), scope)
    return { wake: Context.get(context, RunWorker).wake, stop: Scope.close(scope, Exit.void) }
  })

const trigger = Runs.use((runs) => runs.trigger(wsA, [], "schedule", systemActor))

const statusOf = (run: Run) =>
  Effect.map(
    RunRepository.use((runs) => runs.get(run.workspaceId, run.id)),
    Option.match({ onNone: () => "missing", onSome: (found) => found.status })
  )

const succeeded = (run: Run) => Effect.map(statusOf(run), (status) => status === "succeeded")

const aCatalog = Effect.gen(function* () {
  yield* seedWorkspace(wsA, "max")
  for (const [sku, cost] of [
    ["A", 700],
    ["B", 1100],
    ["C", null]
  ] as const)
    yield* seedItem(wsA, { sku, price: 1000, cost })
})

/** An executor that holds every run until interrupted, and says which runs it was interrupted on. */
const stuckExecutor = Effect.gen(function* () {
  const started = yield* Ref.make<ReadonlyArray<string>>([])
  const interrupted = yield* Ref.make<ReadonlyArray<string>>([])
  const layer = Layer.succeed(
    RunExecutor,
    RunExecutor.of({
      execute: (run) =>
        Ref.update(started, (ids) => [...ids, run.id]).pipe(
          Effect.andThen(Effect.never),
          Effect.onInterrupt(() => Ref.update(interrupted, (ids) => [...ids, run.id]))
        )
    })
  )
  return { layer, started: Ref.get(started), interrupted: Ref.get(interrupted) }
})

/**
 * The run repository in context, with the outcome of every claim a worker makes through it kept in
 * order: the state a test waits for instead of sleeping.
 */
const countedClaims = Effect.gen(function* () {
  const runs = yield* RunRepository
  const outcomes = yield* Ref.make<ReadonlyArray<"none" | "claimed">>([])
  const layer = Layer.succeed(
    RunRepository,
    RunRepository.of({
      ...runs,
      claimNext: (owner, now, until) =>
        Effect.tap(runs.claimNext(owner, now, until), (claimed) =>
          Ref.update(outcomes, (all) => [...all, Option.isSome(claimed) ? ("claimed" as const) : ("none" as const)])
        )
    })
  )
  return { layer, outcomes: Ref.get(outcomes) }
})

describe("RunWorker", () => {
  it.live("claims queued runs and executes each one once, across loops and workers", () =>
    Effect.gen(function* () {
      yield* aCatalog
      const queued: Array<Run> = []
      for (let n = 0; n < 6; n++) queued.push(yield* trigger)
      const one = yield* startWorker(RunWorker.layerWith(options({ concurrency: 2 })))
      const two = yield* startWorker(RunWorker.layerWith(options({ concurrency: 2 })))
      for (const run of queued) yield* eventually(succeeded(run), `run ${run.id} succeeded`)
      yield* one.stop
      yield* two.stop
      const starts = (yield* auditOf(wsA)).filter((event) => event.action === "run.start")
      assert.deepStrictEqual(starts.map((event) => event.resourceId).sort(), queued.map((run) => run.id).sort())
    }).pipe(Effect.provide(useCases))
  )

  it.live("a wake ends the idle pause: a run queued in this process starts at once", () =>
    Effect.gen(function* () {
      yield* aCatalog
      const claims = yield* countedClaims
      const worker = yield* startWorker(
        RunWorker.layerWith(options({ pollInterval: Duration.hours(1) })).pipe(Layer.provide(claims.layer))
      )
      // The first claim found nothing; without the wake the loop would sleep for an hour.
      yield* eventually(
        Effect.map(claims.outcomes, (outcomes) => outcomes.includes("none")),
        "the first claim found nothing"
      )
      const run = yield* trigger
      yield* worker.wake
      yield* eventually(succeeded(run), "the woken run succeeded", { within: Duration.seconds(30) })
      yield* worker.stop
    }).pipe(Effect.provide(useCases))
  )

  it.live("a run whose worker died is executed by another once the lease has run out", () =>
    Effect.gen(function* () {
      yield* aCatalog
      const run = yield* trigger
      const now = yield* Clock.currentTimeMillis
      const runs = yield* RunRepository
      assert.isTrue(Option.isSome(yield* runs.claimNext("worker-that-died", now, now + 2_000)))
      const claims = yield* countedClaims
      const worker = yield* startWorker(RunWorker.layerWith(options()).pipe(Layer.provide(claims.layer)))
      // The worker's claims find nothing while the lease holds (the run stays queued), then take it.
      yield* eventually(
        Effect.map(claims.outcomes, (outcomes) => outcomes.includes("none")),
        "a claim found the run held"
      )
      assert.strictEqual(yield* statusOf(run), "queued", "held by the dead worker's lease")
      yield* eventually(succeeded(run), "the run succeeded after the lease ran out")
      yield* worker.stop
      const outcomes = yield* claims.outcomes
      assert.strictEqual(outcomes.indexOf("claimed"), outcomes.lastIndexOf("claimed"), "claimed once")
      assert.isTrue(outcomes.slice(0, outcomes.indexOf("claimed")).every((outcome) => outcome === "none"))
    }).pipe(Effect.provide(useCases))
  )

  it.live("a loop whose lease was taken over stops executing and claims again", () =>
    Effect.gen(function* () {
      yield* aCatalog
      const run = yield* trigger
      const stuck = yield* stuckExecutor
      const worker = yield* startWorker(RunWorker.layerWith(options()).pipe(Layer.provide(stuck.layer)))
      yield* eventually(
        Effect.map(stuck.started, (ids) => ids.length === 1),
        "the run started"
      )
      // Another worker takes the run over, as if this one had stalled past its lease.
      const runs = yield* RunRepository
      const later = (yield* Clock.currentTimeMillis) + Duration.toMillis(Duration.seconds(5))
      assert.isTrue(Option.isSome(yield* runs.claimNext("another-worker", later, later + 60_000)))
      yield* eventually(
        Effect.map(stuck.interrupted, (ids) => ids.includes(run.id)),
        "the execution was stopped"
      )
      yield* worker.stop
    }).pipe(Effect.provide(useCases))
  )

  it.live("a stop interrupts a run that outlasts the drain timeout and gives its lease back", () =>
    Effect.gen(function* () {
      yield* aCatalog
      const run = yield* trigger
      const stuck = yield* stuckExecutor
      const worker = yield* startWorker(
        RunWorker.layerWith(options({ lease: Duration.hours(1), drainTimeout: Duration.millis(50) })).pipe(
          Layer.provide(stuck.layer)
        )
      )
      yield* eventually(
        Effect.map(stuck.started, (ids) => ids.length === 1),
        "the run started"
      )
      yield* worker.stop
      assert.deepStrictEqual(yield* stuck.interrupted, [run.id])
      // An hour's lease, given back: the next worker claims the run at once.
      const next = yield* startWorker(RunWorker.layerWith(options()))
      yield* eventually(succeeded(run), "the run carried on in the next worker", { within: Duration.seconds(2) })
      yield* next.stop
    }).pipe(Effect.provide(useCases))
  )

  it.live("lives on through failed claims and defects", () =>
    Effect.gen(function* () {
      yield* aCatalog
      const run = yield* trigger
      const calls = yield* Ref.make(0)
      const flaky = Layer.effect(
        RunRepository,
        RunRepository.useSync((runs) =>
          RunRepository.of({
            ...runs,
            claimNext: (owner, now, leaseUntil) =>
              Effect.flatMap(
                Ref.getAndUpdate(calls, (n) => n + 1),
                (n) =>
                  n === 0
                    ? Effect.fail(
                        new RepositoryError({ operation: "RunRepository.claimNext", message: "connection lost" })
                      )
                    : n === 1
                      ? Effect.die("a bug")
                      : runs.claimNext(owner, now, leaseUntil)
              )
          })
        )
      )
      const worker = yield* startWorker(RunWorker.layerWith(options()).pipe(Layer.provide(flaky)))
      yield* eventually(succeeded(run), "the run succeeded after a failed claim and a defect")
      assert.isAtLeast(yield* Ref.get(calls), 3)
      yield* worker.stop
    }).pipe(Effect.provide(useCases))
  )

  it.live("no loops with concurrency 0: runs stay queued, and a wake is harmless", () =>
    Effect.gen(function* () {
      yield* aCatalog
      const run = yield* trigger
      const worker = yield* startWorker(RunWorker.layerWith(options({ concurrency: 0 })))
      yield* worker.wake
      yield* Effect.sleep(Duration.millis(100))
      assert.strictEqual(yield* statusOf(run), "queued")
      yield* worker.stop
    }).pipe(Effect.provide(useCases))
  )
})
