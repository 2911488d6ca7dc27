import { assert, describe, it } from "@effect/vitest"
import { eventually } from "@margin/jobs/testing/Eventually"
import { PgSandboxStore } from "@margin/postgres"
import {
  recommendationOf,
  seedApprovalWorkspace,
  seedPendingRecommendations,
  writeBackOf
} from "@margin/runtime/testing/ApprovalWorld"
import { approveOver } from "@margin/runtime/testing/ApproveRequest"
import { startRestServer } from "@margin/runtime/testing/ChildProcesses"
import * as ScratchDatabase from "@margin/runtime/testing/ScratchDatabase"
import { Array as Arr, Duration, Effect } from "effect"

describe("approve, 100 concurrent requests over two REST server processes", () => {
  it.live(
    "exactly one approval takes effect, the other 99 are idempotent repeats, and the store is written once",
    () =>
      Effect.gen(function* () {
        const database = yield* ScratchDatabase.ScratchDatabase
        const { workspaceId, token } = yield* seedApprovalWorkspace()
        const [recommendation] = yield* seedPendingRecommendations(workspaceId, 1)
        if (recommendation === undefined) return yield* Effect.die("seeded no recommendation")
        const env = { DATABASE_URL: database.url }
        const servers = yield* Effect.all([startRestServer("rest-a", env), startRestServer("rest-b", env)], {
          concurrency: "unbounded"
        })

        const answers = yield* Effect.forEach(
          Arr.makeBy(100, (index) => servers[index % 2]?.baseUrl ?? ""),
          (baseUrl) => approveOver(baseUrl, token, recommendation.id),
          { concurrency: "unbounded" }
        )

        for (const answer of answers) assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
        const tookEffect = answers.filter((answer) => answer.body?.idempotent === false)
        const repeats = answers.filter((answer) => answer.body?.idempotent === true)
        assert.strictEqual(tookEffect.length, 1, "one approval took effect")
        assert.strictEqual(repeats.length, 99, "every other approval is an idempotent repeat")
        for (const repeat of repeats) assert.deepStrictEqual(repeat.body, { ok: true, idempotent: true })

        yield* eventually(
          Effect.map(writeBackOf(workspaceId, recommendation.id), (writeBack) => writeBack.status === "applied"),
          "the write-back applied",
          { within: Duration.seconds(20), every: Duration.millis(100) }
        )
        const writes = yield* PgSandboxStore.listWrites(workspaceId)
        assert.strictEqual(writes.length, 1, "the store received exactly one write")
        assert.deepInclude(writes[0], { oldPrice: 1000, newPrice: 1099, idempotencyKey: recommendation.id })
        assert.strictEqual((yield* recommendationOf(workspaceId, recommendation.id)).status, "applied")
      }).pipe(Effect.scoped, Effect.provide(ScratchDatabase.layer)),
    { timeout: 180_000 }
  )
})
