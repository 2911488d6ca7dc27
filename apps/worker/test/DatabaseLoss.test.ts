import { assert, describe, it } from "@effect/vitest"
import { eventually } from "@margin/jobs/testing/Eventually"
import { PgSandboxStore } from "@margin/postgres"
import {
  recommendationOf,
  seedApprovalWorkspace,
  seedPendingRecommendations,
  writeBackOf
} from "@margin/runtime/testing/ApprovalWorld"
import { type ApproveAnswer, approveOver } from "@margin/runtime/testing/ApproveRequest"
import { startRestServer } from "@margin/runtime/testing/ChildProcesses"
import * as PgProxy from "@margin/runtime/testing/PgProxy"
import * as ScratchDatabase from "@margin/runtime/testing/ScratchDatabase"
import { Duration, Effect, Schedule } from "effect"

// The statement only the approve transaction sends: its outbox row.
const approveMarker = "INSERT INTO write_backs"

/**
 * A REST server whose database connections go through a proxy that cuts the approve transaction's
 * connection at its COMMIT (`at`); one approval, then retries of the same approval as a client would.
 */
const approveThroughLostConnection = (at: PgProxy.CutPoint) =>
  Effect.gen(function* () {
    const database = yield* ScratchDatabase.ScratchDatabase
    const proxy = yield* PgProxy.start({ host: database.host, port: database.port })
    const server = yield* startRestServer("rest-behind-proxy", {
      DATABASE_URL: database.urlVia("127.0.0.1", proxy.port),
      OUTBOX_POLL_INTERVAL: "100 millis"
    })
    const { workspaceId, token } = yield* seedApprovalWorkspace()
    const [recommendation] = yield* seedPendingRecommendations(workspaceId, 1)
    if (recommendation === undefined) return yield* Effect.die("seeded no recommendation")

    yield* proxy.cutNextTransaction(approveMarker, at)
    const lost = yield* approveOver(server.baseUrl, token, recommendation.id)
    // The client retries the same approval until it gets an answer that is not an outage.
    const retried = yield* approveOver(server.baseUrl, token, recommendation.id).pipe(
      Effect.flatMap((answer) => (answer.status >= 500 ? Effect.fail(answer) : Effect.succeed(answer))),
      Effect.retry({ schedule: Schedule.spaced(Duration.millis(200)), times: 20 }),
      Effect.catch((answer: ApproveAnswer) => Effect.die(`the retries kept failing: ${JSON.stringify(answer)}`))
    )
    yield* eventually(
      Effect.map(writeBackOf(workspaceId, recommendation.id), (writeBack) => writeBack.status === "applied"),
      "the write-back applied",
      { within: Duration.seconds(20), every: Duration.millis(100) }
    )
    return {
      lost,
      log: yield* server.output,
      retried,
      cuts: yield* proxy.cuts,
      writes: yield* PgSandboxStore.listWrites(workspaceId),
      status: (yield* recommendationOf(workspaceId, recommendation.id)).status
    }
  })

/** A 5xx with the error envelope: a code and a message for people, nothing internal. */
const assertOutageEnvelope = (answer: ApproveAnswer) => {
  assert.strictEqual(answer.status, 503, JSON.stringify(answer.body))
  assert.strictEqual(answer.body?.code, "service_unavailable")
  assert.isString(answer.body?.message)
}

/** The 503 left a warning naming the operation and the database's reason, on the request's log lines. */
const assertOutageLogged = (log: string) => {
  const line = log
    .split("\n")
    .find((candidate) => candidate.includes("service unavailable: the database could not answer"))
  assert.isDefined(line, log.slice(-4000))
  assert.match(line ?? "", /"operation":"[^"]+"/)
  assert.match(line ?? "", /"reason":"[^"]+"/)
  assert.match(line ?? "", /"request_id":"[^"]+"/)
}

describe("the database connection is lost during approve (REST server process on PostgreSQL)", () => {
  it.live(
    "before the COMMIT reached the database: an error in the envelope, and the retry approves it; one store write",
    () =>
      Effect.gen(function* () {
        const result = yield* approveThroughLostConnection("before_commit")
        assert.strictEqual(result.cuts, 1)
        assertOutageEnvelope(result.lost)
        assertOutageLogged(result.log)
        assert.strictEqual(result.retried.status, 200)
        assert.strictEqual(
          result.retried.body?.idempotent,
          false,
          "the lost attempt was rolled back: the retry takes effect"
        )
        assert.strictEqual(result.writes.length, 1)
        assert.strictEqual(result.status, "applied")
      }).pipe(Effect.scoped, Effect.provide(ScratchDatabase.layer)),
    { timeout: 120_000 }
  )

  it.live(
    "after the database committed, before the server heard: an error in the envelope, the retry is an idempotent repeat; one store write",
    () =>
      Effect.gen(function* () {
        const result = yield* approveThroughLostConnection("after_commit")
        assert.strictEqual(result.cuts, 1)
        assertOutageEnvelope(result.lost)
        assert.strictEqual(result.retried.status, 200)
        assert.deepStrictEqual(result.retried.body, { ok: true, idempotent: true }, "the lost attempt had committed")
        // Nobody delivered in the request: the server's own outbox loop did.
        assert.strictEqual(result.writes.length, 1)
        assert.strictEqual(result.status, "applied")
      }).pipe(Effect.scoped, Effect.provide(ScratchDatabase.layer)),
    { timeout: 120_000 }
  )
})
