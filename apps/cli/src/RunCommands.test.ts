import { assert, layer } from "@effect/vitest"
import { CatalogRepository } from "@margin/core/catalog/CatalogRepository"
import { RunId, WorkspaceId } from "@margin/core/kernel/Ids"
import { RunExecutor } from "@margin/core/runs/RunExecutor"
import * as RunMachine from "@margin/core/runs/RunMachine"
import { RunRepository } from "@margin/core/runs/RunRepository"
import { aCatalogItemInput } from "@margin/core/testing/Fixtures"
import { PgAdapters } from "@margin/postgres"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { Clock, Effect, Layer, Option, Schedule } from "effect"
import {
  assertFailed,
  marginctlJsonOnTestDatabase,
  marginctlOnTestDatabase,
  processTimeout,
  startMarginctlOnTestDatabase,
  textOf
} from "./testing/Marginctl.ts"

/**
 * `marginctl run trigger` and `marginctl run watch` as processes, on a fresh migrated database
 * (on the embedded test server, or PostgreSQL with DATABASE_URL). The test process plays
 * the run worker: it executes the queued run while `watch` follows it.
 */

const cli = marginctlOnTestDatabase
const cliJson = marginctlJsonOnTestDatabase

/** A workspace of `plan` made by marginctl, with three items: two tagged summer. */
const aWorkspace = (plan: string) =>
  Effect.gen(function* () {
    const workspaceId = WorkspaceId.make(
      textOf((yield* cliJson("workspace", "create", "--name", "Runs", "--plan", plan)).id)
    )
    const now = yield* Clock.currentTimeMillis
    yield* CatalogRepository.use((catalog) =>
      catalog.upsertMany(
        workspaceId,
        [
          aCatalogItemInput({ sku: "A", price: 1000, cost: 700, tags: ["summer"] }),
          aCatalogItemInput({ sku: "B", price: 1000, cost: 1100, tags: ["winter"] }),
          aCatalogItemInput({ sku: "C", price: 1000, cost: null, tags: ["summer"] })
        ],
        now
      )
    )
    return workspaceId
  })

const execute = (id: string) =>
  Effect.gen(function* () {
    const found = yield* RunRepository.use((runs) => runs.find(RunId.make(id)))
    if (Option.isNone(found)) return yield* Effect.die(`no run ${id}`)
    return yield* RunExecutor.use((executor) => executor.execute(found.value))
  })

const services = RunExecutor.layer.pipe(Layer.provideMerge(PgAdapters.layer), Layer.provideMerge(TestDatabase.layer))

// The real clock: `watch` polls while this process executes the run.
layer(services, { timeout: "5 minutes", excludeTestServices: true })("marginctl run", (it) => {
  it.effect(
    "trigger queues a run over tags; watch draws its progress until it succeeds",
    () =>
      Effect.gen(function* () {
        const workspaceId = yield* aWorkspace("max")
        const queued = yield* cliJson("run", "trigger", "--workspace", workspaceId, "--tags", "summer, winter")
        assert.deepStrictEqual(
          [queued.status, queued.trigger, queued.subset_tags, queued.requested_by],
          ["queued", "cli", ["summer", "winter"], "system:marginctl"]
        )
        const id = textOf(queued.id)

        const watching = yield* startMarginctlOnTestDatabase("run", "watch", id)
        // The watch has drawn the run queued before this process, the worker, takes it.
        yield* watching.stdout.pipe(
          Effect.repeat({ until: (printed) => printed.includes("\n"), schedule: Schedule.spaced("50 millis") })
        )
        const done = yield* execute(id)
        assert.strictEqual(done.status, "succeeded")
        const watched = yield* watching.outcome
        assert.strictEqual(watched.code, 0, watched.stderr)
        const lines = watched.stdout.trim().split("\n")
        assert.match(lines[0] ?? "", /^queued +\[-+\] +0% {2}0 items/)
        assert.match(
          lines[lines.length - 1] ?? "",
          // A, C tagged summer, B winter: A and B get a recommendation; B a loss (2 alerts), C no cost.
          /^succeeded \[#+\] 100% {2}3\/3 items · 2 recommendations · 3 alerts · took \d+s$/
        )

        const again = yield* cliJson("run", "watch", id)
        assert.deepStrictEqual([again.status, again.items_analysed, again.items_total], ["succeeded", 3, 3])
        const whole = yield* cliJson("run", "trigger", "--workspace", workspaceId)
        assert.deepStrictEqual(whole.subset_tags, [])
      }).pipe(Effect.scoped),
    processTimeout
  )

  it.effect(
    "watch fails for an unknown run and for a failed one; trigger refuses beyond the plan's runs",
    () =>
      Effect.gen(function* () {
        assertFailed(yield* cli("run", "watch", "run_missing"), /^marginctl: there is no run run_missing/m, 3)
        assertFailed(yield* cli("run", "trigger", "--workspace", "ws_missing"), /ws_missing/, 3)

        const workspaceId = yield* aWorkspace("free")
        const first = textOf((yield* cliJson("run", "trigger", "--workspace", workspaceId)).id)
        // A worker started the run and failed it.
        const now = yield* Clock.currentTimeMillis
        for (const command of [RunMachine.start, RunMachine.fail("the database went away")]) {
          yield* RunRepository.use((runs) =>
            runs.update(workspaceId, RunId.make(first), (run) => RunMachine.decide(run, command, now))
          )
        }
        const failed = yield* cli("run", "watch", first)
        assert.strictEqual(failed.code, 1)
        assert.match(failed.stdout, /^failed .* · error: the database went away$/m)
        assert.match(failed.stderr, new RegExp(`^marginctl: run ${first} failed: the database went away`, "m"))

        for (let n = 1; n < 10; n++) yield* cliJson("run", "trigger", "--workspace", workspaceId)
        assertFailed(
          yield* cli("run", "trigger", "--workspace", workspaceId),
          /plan limit reached: runs_per_month 10 of 10/,
          1
        )
      }),
    processTimeout
  )
})
