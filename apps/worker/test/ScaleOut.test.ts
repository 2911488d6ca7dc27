import { assert, layer } from "@effect/vitest"
import { RunId, type WorkspaceId } from "@margin/core/kernel/Ids"
import { RunRepository } from "@margin/core/runs/RunRepository"
import { eventually } from "@margin/jobs/testing/Eventually"
import { PgSandboxStore } from "@margin/postgres"
import { type Agent, connectTo } from "@margin/runtime/testing/AgentClient"
import {
  type ApprovalWorkspace,
  recommendationOf,
  seedApprovalWorkspace,
  seedPendingRecommendations,
  writeBackOf
} from "@margin/runtime/testing/ApprovalWorld"
import { type Answer, approveOver, requestOver } from "@margin/runtime/testing/ApproveRequest"
import {
  type Child,
  type McpServerProcess,
  type RestServer,
  startMcpServer,
  startRestServer,
  startWorker
} from "@margin/runtime/testing/ChildProcesses"
import { fallbacksOf } from "@margin/runtime/testing/MetricSample"
import { countedFor, type RedisServer, startRedisServer } from "@margin/runtime/testing/RedisServer"
import { aMixedCatalog, assertExecutedOnce, finished, importItems } from "@margin/runtime/testing/RunWorld"
import * as ScratchDatabase from "@margin/runtime/testing/ScratchDatabase"
import * as TcpProxy from "@margin/runtime/testing/TcpProxy"
import { Array as Arr, Clock, Context, Duration, Effect, Layer, Option, Schedule } from "effect"

/**
 * The scaled-out deployment of docs/operations.md as real processes on one PostgreSQL database and
 * one Redis: two REST servers and one MCP server with their background work off
 * (RUN_WORKER_CONCURRENCY=0, OUTBOX_CONCURRENCY=0), and two worker processes. Through the public
 * surfaces (HTTP, MCP, the store's writes, the database's rows) it behaves as one service: one rate
 * budget, every run executed once and by a worker, one store write per approval, and a worker
 * killed mid-run leaves its run to the other.
 */

const limit = 60

class ScaleOut extends Context.Service<
  ScaleOut,
  {
    readonly redis: RedisServer
    /** Between the front doors and Redis: slows Redis down on demand. */
    readonly redisProxy: TcpProxy.TcpProxy
    readonly apis: readonly [RestServer, RestServer]
    readonly mcp: McpServerProcess
    readonly workers: readonly [Child, Child]
  }
>()("test/ScaleOut") {}

const world = Layer.effect(
  ScaleOut,
  Effect.gen(function* () {
    const database = yield* ScratchDatabase.ScratchDatabase
    const redis = yield* startRedisServer("redis")
    const redisProxy = yield* TcpProxy.make({ host: "127.0.0.1", port: redis.port })
    const frontDoor = {
      DATABASE_URL: database.url,
      REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
      RATE_LIMIT_PER_MINUTE: String(limit),
      // Three front doors: each admits a third of the limit if Redis cannot count in time, and a
      // slow Redis is waited for (far longer than this loaded machine's pauses) before that.
      RATE_LIMIT_PROCESSES: "3",
      RATE_LIMIT_REDIS_TIMEOUT: "30 seconds",
      RUN_WORKER_CONCURRENCY: "0",
      OUTBOX_CONCURRENCY: "0",
      // The store refuses the one delivery an approve request attempts itself, soon retried: so every
      // write-back is delivered by a worker, the two workers competing for it.
      SANDBOX_FAIL_FIRST: "1000000",
      WRITE_BACK_RETRY_BASE: "100 millis"
    }
    // A short lease, so that the killed worker's run is free again soon after its last beat.
    const worker = {
      DATABASE_URL: database.url,
      RUN_LEASE: "3 seconds",
      RUN_HEARTBEAT: "300 millis",
      RUN_POLL_INTERVAL: "100 millis",
      OUTBOX_POLL_INTERVAL: "100 millis",
      // No metrics server: two workers on one machine would want the same port.
      WORKER_METRICS_PORT: "0"
    }
    const [apiA, apiB, mcp, workerA, workerB] = yield* Effect.all(
      [
        startRestServer("api-a", frontDoor),
        startRestServer("api-b", frontDoor),
        startMcpServer("mcp", frontDoor),
        startWorker("worker-a", worker),
        startWorker("worker-b", worker)
      ],
      { concurrency: "unbounded" }
    )
    return { redis, redisProxy, apis: [apiA, apiB], mcp, workers: [workerA, workerB] } as const
  })
).pipe(Layer.provideMerge(ScratchDatabase.layer))

/** Budgets are fixed minutes: a burst starts well inside one (20 s left, however slow the burst), so that no reset happens in the middle of it. */
const awayFromWindowEdge = Effect.gen(function* () {
  const now = yield* Clock.currentTimeMillis
  const left = 60_000 - (now % 60_000)
  if (left < 20_000) yield* Effect.sleep(left + 200)
})

/** An MCP initialize as an agent's first request (every MCP HTTP request counts against the budget). */
const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "scale-out", version: "1.0.0" } }
}

const mcpInitialize = (mcp: McpServerProcess, token: string) =>
  requestOver(mcp.mcpUrl.toString(), token, {
    method: "POST",
    body: initialize,
    headers: { accept: "application/json, text/event-stream" }
  })

/** The log lines where a worker claimed `runId`. */
const claimsOf = (child: Child, runId: RunId) =>
  Effect.map(
    child.output,
    (text) => text.split("\n").filter((line) => line.includes("run claimed") && line.includes(runId)).length
  )

/** The run as the database has it now. */
const runProgress = (workspaceId: WorkspaceId, runId: RunId) =>
  RunRepository.use((runs) => runs.get(workspaceId, runId)).pipe(
    Effect.flatMap(Option.match({ onNone: () => Effect.die(`no run ${runId}`), onSome: Effect.succeed }))
  )

/** The id of the run a trigger queued. */
const queuedId = (id: unknown, answer: unknown): RunId => {
  assert.isTrue(typeof id === "string" && id.length > 0, `no run queued: ${JSON.stringify(answer)}`)
  return RunId.make(String(id))
}

const runIdOf = (answer: Answer): RunId => {
  assert.strictEqual(answer.status, 202, JSON.stringify(answer.body))
  return queuedId(answer.body?.id, answer.body)
}

/** Queues a full run of the workspace over REST. */
const triggerOverRest = (api: RestServer, world: ApprovalWorkspace) =>
  Effect.map(
    requestOver(`${api.baseUrl}/api/v1/runs`, world.token, { method: "POST", body: { subset_tags: [] } }),
    runIdOf
  )

/** Queues a full run of the workspace with the trigger_run tool of an agent session. */
const triggerOverMcp = (agent: Agent) =>
  Effect.map(agent.call("trigger_run", { subset_tags: [] }), (outcome): RunId => {
    assert.isFalse(outcome.isError, JSON.stringify(outcome.json))
    return queuedId(Reflect.get(Object(outcome.json), "id"), outcome.json)
  })

const agentFor = (mcp: McpServerProcess, token: string) =>
  connectTo(mcp.mcpUrl, token).pipe(
    Effect.mapError((message) => `MCP connect: ${message}`),
    Effect.orDie
  )

layer(world, { excludeTestServices: true, timeout: "3 minutes" })(
  "scale-out: two REST servers, one MCP server and two workers on one PostgreSQL and one Redis",
  (it) => {
    it.effect(
      "one rate budget: with one token, 180 concurrent requests over both REST servers and MCP, Redis slow to answer -> exactly 60 pass",
      () =>
        Effect.gen(function* () {
          const { apis, mcp, redis, redisProxy } = yield* ScaleOut
          const { token, tokenId } = yield* seedApprovalWorkspace()
          const frontDoors = [apis[0].baseUrl, apis[1].baseUrl, mcp.baseUrl]
          const fellBackBefore = yield* fallbacksOf(frontDoors)
          yield* awayFromWindowEdge
          // Every answer of Redis 300 ms late: slow, not down; the shared budget must still decide.
          yield* redisProxy.slowDown(300)
          const doors = ["api-a", "api-b", "mcp"] as const
          const answers = yield* Effect.forEach(
            Arr.makeBy(3 * limit, (n) => doors[n % 3] ?? "mcp"),
            (door) =>
              Effect.map(
                door === "mcp"
                  ? mcpInitialize(mcp, token)
                  : requestOver(`${apis[door === "api-a" ? 0 : 1].baseUrl}/api/v1/workspace/status`, token, {
                      method: "GET"
                    }),
                (answer) => ({ door, ...answer })
              ),
            { concurrency: "unbounded" }
          ).pipe(Effect.ensuring(redisProxy.slowDown(0)))
          const passed = answers.filter((answer) => answer.status !== 429)
          const limited = answers.filter((answer) => answer.status === 429)
          const fellBack = (yield* fallbacksOf(frontDoors)) - fellBackBefore
          const cause = `${fellBack} checks fell back to a process's memory (margin_rate_budget_fallback_total)`
          assert.strictEqual(passed.length, limit, `exactly the budget passes, over the three processes; ${cause}`)
          assert.strictEqual(fellBack, 0, cause)
          for (const answer of passed) assert.strictEqual(answer.status, 200, `${answer.door}: ${answer.status}`)
          for (const answer of limited) {
            assert.strictEqual(answer.body?.code, "rate_limited", answer.door)
            const seconds = Number(answer.retryAfter)
            assert.isTrue(
              Number.isInteger(seconds) && seconds >= 1 && seconds <= 60,
              `Retry-After ${answer.retryAfter}`
            )
          }
          assert.strictEqual(yield* countedFor(redis.url, tokenId), 3 * limit, "every request was counted in Redis")
        }),
      120_000
    )

    it.effect(
      "runs triggered over both REST servers and MCP are each executed once, by a worker, with no duplicates",
      () =>
        Effect.gen(function* () {
          const { apis, mcp, workers } = yield* ScaleOut
          const workspaces = yield* Effect.forEach(Arr.range(1, 6), () => seedApprovalWorkspace())
          yield* Effect.forEach(workspaces, (workspace) => importItems(workspace.workspaceId, aMixedCatalog(150)))
          const agents = yield* Effect.forEach(workspaces.slice(4), (workspace) => agentFor(mcp, workspace.token))
          // Two runs queued over each REST server and two with MCP's trigger_run, all at once.
          const triggers = workspaces.map((workspace, n) => {
            const agent = agents[n - 4]
            const queued =
              agent === undefined ? triggerOverRest(apis[n % 2 === 0 ? 0 : 1], workspace) : triggerOverMcp(agent)
            return Effect.map(queued, (runId) => ({ workspaceId: workspace.workspaceId, runId }))
          })
          const queued = yield* Effect.all(triggers, { concurrency: "unbounded" })

          const done = yield* Effect.forEach(queued, ({ workspaceId, runId }) => finished(workspaceId, runId), {
            concurrency: "unbounded"
          })
          for (const run of done) {
            assert.strictEqual(run.status, "succeeded", run.error ?? "")
            assert.deepStrictEqual([run.itemsTotal, run.itemsAnalysed], [150, 150])
            assert.isAbove(run.recommendationsCount, 0)
            assert.isAbove(run.alertsCount, 0)
            yield* assertExecutedOnce(run)
            const claims = yield* Effect.forEach(workers, (worker) => claimsOf(worker, run.id))
            assert.strictEqual((claims[0] ?? 0) + (claims[1] ?? 0), 1, `${run.id} claimed once: ${claims}`)
          }
          for (const frontDoor of [...apis, mcp]) {
            assert.notMatch(yield* frontDoor.output, /run claimed/, `${frontDoor.name} executes no run`)
          }
          // Either REST server answers the run as the workers left it.
          const [first] = done
          if (first !== undefined) {
            const seen = yield* requestOver(`${apis[1].baseUrl}/api/v1/runs/${first.id}`, workspaces[0]?.token ?? "", {
              method: "GET"
            })
            assert.strictEqual(seen.body?.status, "succeeded")
          }
        }),
      120_000
    )

    it.effect(
      "concurrent approvals of the same recommendations over both REST servers and MCP: one store write each",
      () =>
        Effect.gen(function* () {
          const { apis, mcp } = yield* ScaleOut
          const { workspaceId, token } = yield* seedApprovalWorkspace()
          const recommendations = yield* seedPendingRecommendations(workspaceId, 3)
          const agents = yield* Effect.all([agentFor(mcp, token), agentFor(mcp, token)])
          const approvals = recommendations.flatMap((recommendation) => [
            ...Arr.makeBy(8, (n) =>
              Effect.map(approveOver(apis[n % 2 === 0 ? 0 : 1].baseUrl, token, recommendation.id), (answer) => {
                assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
                return { recommendation: recommendation.id, body: answer.body }
              })
            ),
            ...agents.map((agent) =>
              Effect.map(agent.call("approve_recommendation", { recommendation_id: recommendation.id }), (outcome) => {
                assert.isFalse(outcome.isError, JSON.stringify(outcome.json))
                return { recommendation: recommendation.id, body: Object(outcome.json) }
              })
            )
          ])
          const answers = yield* Effect.all(approvals, { concurrency: "unbounded" })

          for (const recommendation of recommendations) {
            const mine = answers.filter((answer) => answer.recommendation === recommendation.id)
            const tookEffect = mine.filter((answer) => Reflect.get(answer.body, "idempotent") === false)
            const repeats = mine.filter((answer) => Reflect.get(answer.body, "idempotent") === true)
            assert.strictEqual(tookEffect.length, 1, "one approval took effect")
            assert.strictEqual(repeats.length, 9, "the nine others are idempotent repeats")
            // The front door could not deliver it: a worker does.
            assert.deepNestedInclude(tookEffect[0]?.body, { "write_back.status": "pending" })
            yield* eventually(
              Effect.map(writeBackOf(workspaceId, recommendation.id), (writeBack) => writeBack.status === "applied"),
              "the write-back applied",
              { within: Duration.seconds(30), every: Duration.millis(100) }
            )
            assert.strictEqual((yield* recommendationOf(workspaceId, recommendation.id)).status, "applied")
          }
          const writes = yield* PgSandboxStore.listWrites(workspaceId)
          assert.deepStrictEqual(
            writes.map((write) => write.idempotencyKey).toSorted(),
            recommendations.map((recommendation) => recommendation.id).toSorted(),
            "the store received exactly one write per recommendation"
          )
        }),
      120_000
    )

    // Last: it leaves one worker.
    it.effect(
      "a worker killed with kill -9 in the middle of a run: the other worker takes it over and finishes it once",
      () =>
        Effect.gen(function* () {
          const { apis, workers } = yield* ScaleOut
          const items = 24_000
          const workspace = yield* seedApprovalWorkspace()
          yield* importItems(workspace.workspaceId, aMixedCatalog(items))
          const runId = yield* triggerOverRest(apis[0], workspace)

          const claimer = yield* Effect.findFirst(workers, (worker) =>
            Effect.map(claimsOf(worker, runId), (n) => n > 0)
          ).pipe(
            Effect.flatMap(Option.match({ onNone: () => Effect.fail("not yet" as const), onSome: Effect.succeed })),
            Effect.retry(Schedule.spaced(Duration.millis(20))),
            Effect.timeout(Duration.seconds(60)),
            Effect.orDie
          )
          yield* runProgress(workspace.workspaceId, runId).pipe(
            Effect.flatMap((run) => (run.itemsAnalysed > 0 ? Effect.void : Effect.fail("not yet" as const))),
            Effect.retry(Schedule.spaced(Duration.millis(10))),
            Effect.timeout(Duration.seconds(60)),
            Effect.orDie
          )
          yield* claimer.kill9
          const killed = yield* runProgress(workspace.workspaceId, runId)
          assert.strictEqual(killed.status, "running", `killed too late: ${yield* claimer.output}`)
          assert.isBelow(killed.itemsAnalysed, items, "the kill came before the last chunk")

          const heir = workers.find((worker) => worker !== claimer)
          if (heir === undefined) return yield* Effect.die("no other worker")
          const done = yield* finished(workspace.workspaceId, runId, Duration.seconds(120))
          assert.strictEqual(done.status, "succeeded", done.error ?? "")
          assert.deepStrictEqual([done.itemsTotal, done.itemsAnalysed], [items, items])
          assert.strictEqual(yield* claimsOf(heir, runId), 1, "the other worker took the run over")
          yield* assertExecutedOnce(done)
        }),
      180_000
    )
  }
)
