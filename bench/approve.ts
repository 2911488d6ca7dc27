// Approvals end to end on PostgreSQL: the REST server and 4 worker processes on a scratch database,
// N pending recommendations approved by concurrent HTTP clients, each timed from the request until
// its price is written in the sandbox store.
// Usage: npm run bench:approve [-- <approvals> <in-flight>]   (default 1,000 approvals, 32 in flight)
// PostgreSQL: DATABASE_URL, else PG_TEST_URL, else postgres://postgres@127.0.0.1:5432/test (a fresh
// database is created on that server and dropped at the end).
import { NodeRuntime } from "@effect/platform-node"
import { PgSandboxStore } from "@margin/postgres"
import { seedApprovalWorkspace, seedPendingRecommendations } from "@margin/runtime/testing/ApprovalWorld"
import { approveOver } from "@margin/runtime/testing/ApproveRequest"
import { startRestServer, startWorker } from "@margin/runtime/testing/ChildProcesses"
import * as ScratchDatabase from "@margin/runtime/testing/ScratchDatabase"
import { Array as Arr, Console, Duration, Effect, Schedule } from "effect"
import { cpuOf } from "./ProcessCpu.ts"

const approvals = Number(process.argv[2] ?? 1_000)
const inFlight = Number(process.argv[3] ?? 32)
if (!Number.isSafeInteger(approvals) || approvals <= 0 || !Number.isSafeInteger(inFlight) || inFlight <= 0) {
  console.error(`usage: node bench/approve.ts [approvals] [in-flight], got "${process.argv.slice(2).join(" ")}"`)
  process.exit(2)
}
const workerProcesses = 4

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
const ms = (value: number) => `${value.toFixed(0)} ms`
const perSecond = (count: number, millis: number) => `${((count * 1000) / millis).toFixed(1)}/s`
const spread = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  return `p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? Number.NaN)}`
}

const program = Effect.gen(function* () {
  const database = yield* ScratchDatabase.ScratchDatabase
  yield* Console.log(
    `approve end to end: ${approvals} approvals, ${inFlight} in flight, REST server + ${workerProcesses} workers, node ${process.version}`
  )
  const { workspaceId, token } = yield* seedApprovalWorkspace()
  const recommendations = yield* seedPendingRecommendations(workspaceId, approvals)

  // The REST server delivers only within approve requests; the background deliveries are the workers'.
  const env = { DATABASE_URL: database.url }
  const [server, workers] = yield* Effect.all(
    [
      startRestServer("rest", { ...env, OUTBOX_CONCURRENCY: "0", RUN_WORKER_CONCURRENCY: "0" }),
      Effect.all(
        Arr.makeBy(workerProcesses, (index) => startWorker(`worker-${index + 1}`, env)),
        { concurrency: "unbounded" }
      )
    ],
    { concurrency: "unbounded" }
  )

  const workerPids = workers.map((worker) => worker.pid)
  const cpuBefore = { rest: cpuOf([server.pid]), workers: cpuOf(workerPids) }
  const started = Date.now()
  const answers = yield* Effect.forEach(
    recommendations,
    (recommendation) =>
      Effect.suspend(() => {
        const sentAt = Date.now()
        return Effect.map(approveOver(server.baseUrl, token, recommendation.id), (answer) => ({
          id: recommendation.id,
          sentAt,
          answer
        }))
      }),
    { concurrency: inFlight }
  )
  const answeredMs = Date.now() - started
  const failed = answers.filter(({ answer }) => answer.status !== 200 || answer.body?.idempotent !== false)
  if (failed.length > 0)
    return yield* Effect.die(`${failed.length} approvals failed, e.g. ${JSON.stringify(failed[0])}`)

  yield* Effect.flatMap(PgSandboxStore.listWrites(workspaceId), (writes) =>
    writes.length >= approvals ? Effect.void : Effect.fail(writes.length)
  ).pipe(
    Effect.retry({ schedule: Schedule.spaced(Duration.millis(50)), times: 2400 }),
    Effect.catch((count) => Effect.die(`only ${count} of ${approvals} write-backs applied after 2 minutes`))
  )
  const writes = yield* PgSandboxStore.listWrites(workspaceId)
  const cpuAfter = { rest: cpuOf([server.pid]), workers: cpuOf(workerPids) }
  const writtenAt = new Map(writes.map((write) => [write.idempotencyKey, write.writtenAt]))
  const endToEnd = answers.map(({ id, sentAt }) => (writtenAt.get(id) ?? Number.NaN) - sentAt)
  const lastApplied = Math.max(...writes.map((write) => write.writtenAt))
  const inRequest = answers.filter(({ answer }) => {
    const writeBack = answer.body?.write_back
    return (
      typeof writeBack === "object" && writeBack !== null && "status" in writeBack && writeBack.status === "applied"
    )
  }).length

  yield* Console.log(
    `approve requests:   ${perSecond(approvals, answeredMs)} (${approvals} in ${ms(answeredMs)}); latency ${spread(answers.map(({ answer }) => answer.elapsedMs))}`
  )
  yield* Console.log(
    `request -> applied: ${perSecond(approvals, lastApplied - started)} (all applied after ${ms(lastApplied - started)}); latency ${spread(endToEnd)}`
  )
  yield* Console.log(
    `applied within the request: ${inRequest} (${((100 * inRequest) / approvals).toFixed(1)} %), by the workers: ${approvals - inRequest}`
  )
  yield* Console.log(`store writes: ${writes.length} for ${approvals} approvals`)
  if (cpuBefore.rest !== null && cpuAfter.rest !== null && cpuBefore.workers !== null && cpuAfter.workers !== null) {
    const per = (before: number, after: number) => `${((after - before) / approvals).toFixed(1)} ms`
    yield* Console.log(
      `CPU per approval: REST server ${per(cpuBefore.rest, cpuAfter.rest)}, workers ${per(cpuBefore.workers, cpuAfter.workers)} (all ${workerProcesses})`
    )
  }
  // A graceful stop, as an orchestrator would (SIGTERM), not the kill of the scope's end.
  yield* Effect.forEach([server, ...workers], (child) => child.terminate(), { concurrency: "unbounded", discard: true })
}).pipe(Effect.scoped, Effect.provide(ScratchDatabase.layer))

NodeRuntime.runMain(program)
