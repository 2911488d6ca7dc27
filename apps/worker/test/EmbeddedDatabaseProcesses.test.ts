import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { Alerts } from "@margin/core/alerts/Alerts"
import { Recommendations } from "@margin/core/recommendations/Recommendations"
import { eventually } from "@margin/jobs/testing/Eventually"
import { Database, Migrations, PgAdapters } from "@margin/postgres"
import {
  initializedDataDir,
  isStopped,
  recordedUsers,
  serverPid as serverPidOf
} from "@margin/postgres/testing/EmbeddedDataDir"
import { seedApprovalWorkspace, seedPendingRecommendations } from "@margin/runtime/testing/ApprovalWorld"
import { type ApproveAnswer, approveOver, requestOver } from "@margin/runtime/testing/ApproveRequest"
import { spawnProgram, startNpmStart, startRestServer, startWorker } from "@margin/runtime/testing/ChildProcesses"
import { Duration, Effect, Fiber, Layer, Option, Schema } from "effect"

/**
 * The embedded PostgreSQL as `npm start` uses it (docs/database.md): no DATABASE_URL, one DATA_DIR,
 * every process a real one. The REST server, a worker and marginctl share one PostgreSQL server; a
 * REST server killed with kill -9 during approvals loses none that it answered 200, the next start
 * comes up on the same DATA_DIR, and after a graceful stop no PostgreSQL process is left.
 */

const root = new URL("../../../", import.meta.url).pathname
const marginctlLauncher = join(root, "apps/cli/bin/marginctl.js")

/** The ports and use cases on the embedded database of `dataDir`, as this test process seeds it. */
const onEmbedded = (dataDir: string) =>
  Layer.mergeAll(Recommendations.layer, Alerts.layer).pipe(
    Layer.provideMerge(PgAdapters.layer),
    Layer.provide(Migrations.layer),
    Layer.provideMerge(Database.layerEmbedded(dataDir)),
    Layer.orDie
  )

/**
 * An approver's workspace and `count` recommendations waiting for approval in `dataDir`'s database,
 * seeded from this process, which then leaves the server (and, as its only user, stops it).
 */
const seedApprovals = (dataDir: string, count: number) =>
  Effect.gen(function* () {
    const approver = yield* seedApprovalWorkspace()
    const recommendations = yield* seedPendingRecommendations(approver.workspaceId, count)
    return { ...approver, recommendations }
  }).pipe(Effect.scoped, Effect.provide(onEmbedded(dataDir)))

/** The pid of the server running on `dataDir`; a defect when none runs. */
const serverPid = (dataDir: string) =>
  Effect.flatMap(serverPidOf(dataDir), (pid) =>
    Option.match(pid, {
      onNone: () => Effect.die(`no PostgreSQL server runs on ${dataDir}`),
      onSome: Effect.succeed
    })
  )

/** No PostgreSQL process is left on `dataDir`: the server's pid is gone, and so is its postmaster.pid. */
const assertStopped = (dataDir: string, pid: number) =>
  Effect.map(isStopped(dataDir, pid), (stopped) => assert.isTrue(stopped, `the PostgreSQL server ${pid} still runs`))

/** `marginctl <args> --json` as a process on `dataDir`: its JSON output. */
const marginctl = (dataDir: string, ...args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const child = yield* spawnProgram("marginctl", process.execPath, [marginctlLauncher, ...args, "--json"], {
      DATA_DIR: dataDir
    })
    const status = yield* child.exited
    const output = yield* child.output
    assert.strictEqual(status.code, 0, output)
    return yield* Schema.decodeUnknownEffect(Schema.fromJsonString(Schema.Record(Schema.String, Schema.Unknown)))(
      output.slice(output.indexOf("{"))
    ).pipe(Effect.orDie)
  })

const processTimeout = { timeout: 300_000 }

describe("the embedded PostgreSQL under the service's processes", () => {
  it.live(
    "a REST server, a worker and marginctl share one PostgreSQL server, which stops when the last of them stops",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* initializedDataDir
        const world = yield* seedApprovals(dataDir, 2)
        const env = { DATA_DIR: dataDir }
        const server = yield* startRestServer("rest-embedded", env)
        const started = yield* serverPid(dataDir)
        const worker = yield* startWorker("worker-embedded", env)
        assert.strictEqual(yield* serverPid(dataDir), started, "the worker joined the server's PostgreSQL")
        assert.strictEqual(recordedUsers(dataDir), 2)

        for (const recommendation of world.recommendations) {
          const answer = yield* approveOver(server.baseUrl, world.token, recommendation.id)
          assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
        }
        // marginctl, while both run, sees the store writes their deliveries made.
        yield* eventually(
          Effect.map(marginctl(dataDir, "store", "writes", "--workspace", world.workspaceId), (report) =>
            Array.isArray(report.writes) ? report.writes.length === 2 : false
          ),
          "both approvals delivered, as marginctl reads them",
          { within: Duration.seconds(60), every: Duration.millis(500) }
        )
        assert.strictEqual(yield* serverPid(dataDir), started, "marginctl joined, and left the server running")

        yield* worker.terminate()
        assert.strictEqual(yield* serverPid(dataDir), started, "still up for the REST server")
        const stopped = yield* server.terminate()
        assert.strictEqual(stopped.code, 0, yield* server.output)
        yield* assertStopped(dataDir, started)
      }),
    processTimeout
  )

  it.live(
    "after kill -9 of the REST server during approvals, every approval it answered 200 is kept, npm start comes up again, and a graceful stop leaves no PostgreSQL process",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* initializedDataDir
        const world = yield* seedApprovals(dataDir, 40)
        const env = { DATA_DIR: dataDir }
        const first = yield* startRestServer("rest-killed", env)
        const killedServer = yield* serverPid(dataDir)

        // Approvals four at a time; the server is killed once ten have answered.
        const answered: Array<{ readonly id: string; readonly answer: ApproveAnswer }> = []
        const approving = yield* Effect.forkChild(
          Effect.forEach(
            world.recommendations,
            (recommendation) =>
              Effect.map(approveOver(first.baseUrl, world.token, recommendation.id), (answer) => {
                answered.push({ id: recommendation.id, answer })
              }),
            { concurrency: 4 }
          )
        )
        yield* eventually(
          Effect.sync(() => answered.filter(({ answer }) => answer.status === 200).length >= 10),
          "ten approvals answered",
          { within: Duration.seconds(120), every: Duration.millis(20) }
        )
        const killed = yield* first.kill9
        assert.strictEqual(killed.signal, "SIGKILL")
        yield* Fiber.join(approving)
        const approved = answered.filter(({ answer }) => answer.status === 200).map(({ id }) => id)
        assert.isAtLeast(approved.length, 10)
        assert.isBelow(approved.length, 40, "the kill came during the approvals")
        assert.strictEqual(yield* serverPid(dataDir), killedServer, "PostgreSQL outlived the killed server")

        // npm start again on the same DATA_DIR: its server joins the orphaned PostgreSQL, the demo
        // seed it runs joins it too, then it serves.
        const second = yield* startNpmStart("npm-start-again", env)
        // Its log's last start-up line says how long it took.
        yield* second.waitForOutput(/margin-http ready in \d+ ms/)
        const startOutput = yield* second.output
        assert.match(startOutput, /Seeded "Demo Store"/)
        // The token it printed works on the server it started.
        const demoToken = /owner: (pck_\S+)/.exec(startOutput)?.[1] ?? ""
        const status = yield* requestOver(`${second.baseUrl}/api/v1/workspace/status`, demoToken, { method: "GET" })
        assert.strictEqual(status.status, 200, JSON.stringify(status.body))
        const restarted = yield* serverPid(dataDir)
        assert.strictEqual(restarted, killedServer, "npm start joined the orphaned PostgreSQL")
        for (const id of approved) {
          const answer = yield* requestOver(`${second.baseUrl}/api/v1/recommendations/${id}`, world.token, {
            method: "GET"
          })
          assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
          assert.include(["approved", "applied"], answer.body?.status, `${id} lost its approval`)
        }

        const stopped = yield* second.terminate()
        assert.strictEqual(stopped.code, 0, yield* second.output)
        yield* assertStopped(dataDir, restarted)
        assert.strictEqual(recordedUsers(dataDir), 0)
      }),
    processTimeout
  )
})
