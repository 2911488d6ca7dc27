// Analysis runs at catalog scale, end to end on PostgreSQL.
// Usage: npm run bench:run [-- <items> [<off-target share>]]   (default 1,000,000 items, 0.10)
// Imports the synthetic catalog (bench/BenchCatalog.ts) into a fresh database on DATABASE_URL, else
// PG_TEST_URL, else postgres://postgres@127.0.0.1:5432/test (dropped afterwards); starts a worker
// process (apps/worker) and has it execute runs: over every item, over one category, over the rare
// tag, and over every item again (which supersedes the first run's open recommendations). Prints
// each run's items/second next to a bare streamed read of the same rows, the worker's peak RSS, and
// the CPU the worker and the database spent on it (when PostgreSQL runs on this machine), which
// says more than the seconds on a machine that other work shares.
import { readFileSync } from "node:fs"
import { loadavg } from "node:os"
import { NodeRuntime } from "@effect/platform-node"
import { CatalogRepository } from "@margin/core/catalog/CatalogRepository"
import type { Tag } from "@margin/core/catalog/Tag"
import { WorkspaceId } from "@margin/core/kernel/Ids"
import { defaultPricingPolicy } from "@margin/core/pricing/PricingPolicy"
import type { Run } from "@margin/core/runs/Run"
import { defaultRunExecutorConfig } from "@margin/core/runs/RunExecutor"
import { RunRepository } from "@margin/core/runs/RunRepository"
import { Runs } from "@margin/core/runs/Runs"
import { WorkspaceRepository } from "@margin/core/workspaces/WorkspaceRepository"
import { type Child, startWorker } from "@margin/runtime/testing/ChildProcesses"
import * as ScratchDatabase from "@margin/runtime/testing/ScratchDatabase"
import { Clock, Duration, Effect, Layer, Logger, Option, Schedule, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { catalogBatch, categories, describeShape, rareTag } from "./BenchCatalog.ts"

const size = Number(process.argv[2] ?? 1_000_000)
const offTarget = Number(process.argv[3] ?? 0.1)
if (!Number.isSafeInteger(size) || size <= 0 || !(offTarget >= 0 && offTarget <= 1)) {
  console.error(`usage: node bench/run.ts [items] [off-target share 0..1], got "${process.argv.slice(2).join(" ")}"`)
  process.exit(2)
}

const importBatch = 5_000
const workspaceId = WorkspaceId.make("ws_bench")
const system = { _tag: "SystemActor", name: "bench" } as const

const number = (n: number) => Math.round(n).toLocaleString("en-US")
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const mb = (kb: number) => `${Math.round(kb / 1024)} MB`

/** A line of /proc/<pid>/status or /proc/<pid>/stat, when this machine has them (Linux). */
const procFile = (pid: number, file: string): string | null =>
  Option.getOrNull(Option.liftThrowable(() => readFileSync(`/proc/${pid}/${file}`, "utf8"))())

/** The peak resident set of a process so far (VmHWM), in kB; 0 when unknown. */
const peakRssKb = (pid: number): number => {
  const line = procFile(pid, "status")
    ?.split("\n")
    .find((entry) => entry.startsWith("VmHWM:"))
  return Number(line?.replace(/\D+/g, "") ?? 0)
}

/** CPU time (user + system) a process has used, in ms; 0 when unknown. */
const cpuMs = (pid: number): number => {
  const fields = procFile(pid, "stat")?.split(") ")[1]?.split(" ") ?? []
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10
}

/** The CPU of the database's server processes for the bench database, when they run on this machine. */
const databaseCpuMs = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const backends = yield* sql<{ readonly pid: number }>`
    SELECT pid FROM pg_stat_activity WHERE datname = current_database()`
  return new Map(backends.map(({ pid }) => [pid, cpuMs(pid)]))
}).pipe(Effect.orDie)

const cpuBetween = (before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>) =>
  [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0)

const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const started = performance.now()
    const value = yield* effect
    return { value, ms: performance.now() - started }
  })

const importCatalog = Effect.gen(function* () {
  const catalog = yield* CatalogRepository
  const now = yield* Clock.currentTimeMillis
  for (let from = 0; from < size; from += importBatch) {
    yield* catalog.upsertMany(workspaceId, catalogBatch({ offTarget }, from, Math.min(importBatch, size - from)), now)
  }
})

/** Reads the rows a run over `tags` reads, the way it reads them, and nothing else. */
const bareRead = (tags: ReadonlyArray<Tag>) =>
  CatalogRepository.use((catalog) =>
    catalog.streamRunItems(workspaceId, tags, defaultRunExecutorConfig.chunkSize).pipe(
      Stream.runFold(
        () => 0,
        (count, chunk) => count + chunk.length
      )
    )
  )

/** The run once it has ended; the worker process dying first is a failure that shows its output. */
const finished = (run: Run, worker: Child) =>
  RunRepository.use((runs) => runs.get(workspaceId, run.id)).pipe(
    Effect.map(Option.filter((found) => found.status !== "queued" && found.status !== "running")),
    Effect.flatMap(Option.match({ onNone: () => Effect.fail("not yet" as const), onSome: Effect.succeed })),
    Effect.retry(Schedule.spaced(Duration.millis(100))),
    Effect.orDie,
    Effect.raceFirst(
      Effect.flatMap(worker.exited, (status) =>
        Effect.flatMap(worker.output, (output) =>
          Effect.die(`the worker exited (${status.code ?? status.signal}) during the run:\n${output.slice(-3000)}`)
        )
      )
    )
  )

/** Queues a run, waits for the worker to finish it, and prints it beside a bare read of its rows. */
const measureRun = (name: string, tags: ReadonlyArray<Tag>, worker: Child) =>
  Effect.gen(function* () {
    const read = yield* timed(bareRead(tags))
    const workerCpu = cpuMs(worker.pid)
    const databaseCpu = yield* databaseCpuMs
    const queued = yield* Runs.use((runs) => runs.trigger(workspaceId, tags, "cli", system))
    const run = yield* finished(queued, worker)
    if (run.status !== "succeeded") return yield* Effect.die(`the run ${run.status}: ${run.error}`)
    const ms = (run.finishedAt ?? 0) - (run.startedAt ?? 0)
    const items = run.itemsAnalysed
    console.log(`${name}`)
    console.log(
      `  run:       ${number(items)} items in ${seconds(ms)} = ${number((items / ms) * 1000)} items/s; ` +
        `${number(run.recommendationsCount)} recommendations, ${number(run.alertsCount)} alerts`
    )
    console.log(
      `  bare read: ${number(read.value)} items in ${seconds(read.ms)} = ${number((read.value / read.ms) * 1000)} items/s ` +
        `(the run took ${(ms / read.ms).toFixed(1)}x the read)`
    )
    const workerUsed = cpuMs(worker.pid) - workerCpu
    const databaseUsed = cpuBetween(databaseCpu, yield* databaseCpuMs)
    console.log(
      `  CPU: worker ${seconds(workerUsed)}, database ${seconds(databaseUsed)} ` +
        `(${(((workerUsed + databaseUsed) / Math.max(1, items)) * 1000).toFixed(1)} µs an item); ` +
        `worker peak RSS so far ${mb(peakRssKb(worker.pid))}; load average ${loadavg()[0]?.toFixed(1)}`
    )
  })

const program = Effect.gen(function* () {
  const database = yield* ScratchDatabase.ScratchDatabase
  const sql = yield* SqlClient.SqlClient
  console.log(`run benchmark: ${number(size)} items (${describeShape({ offTarget })}), node ${process.version}`)
  console.log(`database: a fresh one on ${new URL(database.url).host}; load average ${loadavg()[0]?.toFixed(1)}`)
  const now = yield* Clock.currentTimeMillis
  yield* WorkspaceRepository.use((workspaces) =>
    workspaces.insert({
      id: workspaceId,
      name: "bench",
      plan: "enterprise",
      lifecycleState: "active",
      pricingPolicy: defaultPricingPolicy,
      trialEndsAt: null,
      createdAt: now
    })
  )
  const imported = yield* timed(importCatalog)
  yield* sql.unsafe("VACUUM ANALYZE catalog_items")
  console.log(
    `import: ${number(size)} items in ${seconds(imported.ms)} (CatalogRepository.upsertMany, ${number(importBatch)} a batch)`
  )

  const worker = yield* startWorker("bench-worker", {
    DATABASE_URL: database.url,
    RUN_POLL_INTERVAL: "100 millis",
    LOG_LEVEL: "Info",
    // As `npm run start:worker` starts it: V8's young generation kept small (docs/runs.md, "Memory").
    NODE_OPTIONS: "--max-semi-space-size=16 --max-old-space-size=1024"
  })
  console.log(`worker process ${worker.pid} started, peak RSS ${mb(peakRssKb(worker.pid))}`)
  yield* measureRun("every item", [], worker)
  yield* measureRun(`one category (${categories[3]}, 10% of the items)`, [categories[3] ?? ""], worker)
  yield* measureRun(`the rare tag (${rareTag}, 1% of the items)`, [rareTag], worker)
  yield* measureRun("every item again (supersedes the open recommendations of the first run)", [], worker)
  yield* worker.terminate()
})

program.pipe(
  Effect.scoped,
  Effect.provide(Runs.layer.pipe(Layer.provideMerge(ScratchDatabase.layer))),
  Effect.provide(Logger.layer([])),
  NodeRuntime.runMain
)
