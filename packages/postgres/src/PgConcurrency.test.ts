import * as PgClient from "@effect/sql-pg/PgClient"
import { assert, layer } from "@effect/vitest"
import type { Actor } from "@margin/core/access/Actor"
import { UserId } from "@margin/core/kernel/Ids"
import { Transactor } from "@margin/core/kernel/Transactor"
import * as Machine from "@margin/core/recommendations/RecommendationMachine"
import { RecommendationRepository } from "@margin/core/recommendations/RecommendationRepository"
import { Recommendations } from "@margin/core/recommendations/Recommendations"
import { RunRepository } from "@margin/core/runs/RunRepository"
import { Runs } from "@margin/core/runs/Runs"
import { StoreConnectionRepository } from "@margin/core/stores/StoreConnectionRepository"
import { aStoreConnection, fixtureNow, minuteMs } from "@margin/core/testing/Fixtures"
import { drainRuns } from "@margin/core/testing/Leases"
import { expectSome, seedItem, seedRecommendation, seedRun, seedWorkspace } from "@margin/core/testing/Seed"
import { planLimits } from "@margin/core/workspaces/Plan"
import { Context, Deferred, Duration, Effect, Fiber, Layer, Option, Redacted, Result, Schedule, Schema } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient } from "effect/sql"
import * as TestClock from "effect/testing/TestClock"
import { clientOptions } from "./ClientOptions.ts"
import * as PgAdapters from "./PgAdapters.ts"
import { Int8 } from "./PgColumns.ts"
import { TestDatabase } from "./testing/TestDatabase.ts"

/** Concurrent writers on the test's database (the embedded PostgreSQL, or DATABASE_URL's server). */

/** Connections of the pool the writers share: each transaction holds one of them. */
const poolSize = 20
const writers = 50

/** A fresh database on that server, reached through a pool of `poolSize` connections. */
const database = Layer.effectContext(
  Effect.gen(function* () {
    const test = yield* TestDatabase
    const client = yield* PgClient.make({
      url: Redacted.make(test.url),
      maxConnections: poolSize,
      ...clientOptions
    })
    return Context.make(SqlClient.SqlClient, client)
  })
).pipe(Layer.provide(Reactivity.layer), Layer.provide(TestDatabase.layer))

const services = Layer.mergeAll(Recommendations.layer, Runs.layer).pipe(
  Layer.provideMerge(PgAdapters.layer),
  Layer.provideMerge(database),
  Layer.orDie
)

const Pid = Schema.Struct({ pid: Int8 })
const Counted = Schema.Struct({ count: Int8 })

const countOf = (rows: ReadonlyArray<unknown>) =>
  Effect.map(Schema.decodeUnknownEffect(Schema.Array(Counted))(rows), (decoded) => decoded[0]?.count ?? -1)

const approver: Actor = { _tag: "SessionActor", userId: UserId.make("usr_concurrency") }

/** A workspace on the max plan with a connected store, and one recommendation of its run. */
const scene = Effect.fnUntraced(function* (status: "new" | "pending_approval") {
  const workspace = yield* seedWorkspace()
  yield* StoreConnectionRepository.use((stores) =>
    stores.connect(aStoreConnection({ workspaceId: workspace.id }), null)
  )
  const run = yield* seedRun(workspace.id)
  const recommendation = yield* seedRecommendation(run, yield* seedItem(workspace.id), { status })
  return { workspace, recommendation }
})

/** How many times each tag occurs. */
const tally = (tags: ReadonlyArray<string>): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const tag of tags) counts[tag] = (counts[tag] ?? 0) + 1
  return counts
}

layer(services, { timeout: "2 minutes" })(
  `concurrent writers on PostgreSQL (${writers} writers, pool of ${poolSize})`,
  (it) => {
    it.effect(
      "50 concurrent accepts of one recommendation from separate connections: one Transitioned, 49 IdempotentRepeat",
      () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const transactor = yield* Transactor
          const repository = yield* RecommendationRepository
          const { workspace, recommendation } = yield* scene("new")
          const accept = (current: typeof recommendation) =>
            Machine.decide(current, Machine.accept("user:usr_concurrency"), fixtureNow)
          const attempts = yield* Effect.all(
            Array.from({ length: writers }, () =>
              transactor.transaction(
                Effect.gen(function* () {
                  const [backend] = yield* Effect.flatMap(
                    sql`SELECT pg_backend_pid() AS pid`,
                    Schema.decodeUnknownEffect(Schema.Array(Pid))
                  )
                  const outcome = yield* repository.update(workspace.id, recommendation.id, accept)
                  return { pid: backend?.pid ?? -1, tag: Option.getOrUndefined(outcome)?._tag ?? "None" }
                })
              )
            ),
            { concurrency: "unbounded" }
          )
          assert.deepStrictEqual(tally(attempts.map((attempt) => attempt.tag)), {
            Transitioned: 1,
            IdempotentRepeat: writers - 1
          })
          const connections = new Set(attempts.map((attempt) => attempt.pid)).size
          assert.isAtLeast(connections, 10, `the writers used ${connections} connections`)
          const stored = yield* expectSome(yield* repository.get(workspace.id, recommendation.id), "the recommendation")
          assert.strictEqual(stored.status, "pending_approval")
          assert.strictEqual(stored.version, recommendation.version + 1)
        })
    )

    it.effect(
      "50 concurrent approvals through Recommendations: one takes effect, one outbox row, one audit event",
      () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const recommendations = yield* Recommendations
          const { workspace, recommendation } = yield* scene("pending_approval")
          const results = yield* Effect.all(
            Array.from({ length: writers }, () =>
              recommendations.approve(workspace.id, recommendation.id, approver, "approver")
            ),
            { concurrency: "unbounded" }
          )
          assert.deepStrictEqual(tally(results.map((result) => (result.idempotent ? "repeat" : "approved"))), {
            approved: 1,
            repeat: writers - 1
          })
          const writeBackIds = new Set(results.map((result) => result.writeBack?.id ?? "none"))
          assert.strictEqual(writeBackIds.size, 1, "every answer names the one outbox row")
          assert.isFalse(writeBackIds.has("none"))
          const outboxRows = yield* Effect.flatMap(
            sql`SELECT count(*) AS count FROM write_backs WHERE recommendation_id = ${recommendation.id}`,
            countOf
          )
          assert.strictEqual(outboxRows, 1)
          const auditEvents = yield* Effect.flatMap(
            sql`
          SELECT count(*) AS count FROM audit_events
          WHERE workspace_id = ${workspace.id} AND resource_id = ${recommendation.id} AND action = 'recommendation.approve'`,
            countOf
          )
          assert.strictEqual(auditEvents, 1)
          const stored = yield* expectSome(
            yield* RecommendationRepository.use((repository) => repository.get(workspace.id, recommendation.id)),
            "the recommendation"
          )
          assert.strictEqual(stored.status, "approved")
          assert.strictEqual(stored.version, recommendation.version + 1)
        })
    )

    it.effect(
      "50 concurrent run triggers of a free workspace: exactly its monthly cap is accepted, the rest are plan_limit",
      () =>
        Effect.gen(function* () {
          const runs = yield* Runs
          const workspace = yield* seedWorkspace({ plan: "free" })
          const cap = planLimits.free.runsPerMonth ?? 0
          const outcomes = yield* Effect.all(
            Array.from({ length: writers }, () =>
              Effect.result(runs.trigger(workspace.id, [], "api", { _tag: "SystemActor", name: "concurrency" }))
            ),
            { concurrency: "unbounded" }
          )
          assert.deepStrictEqual(
            tally(outcomes.map((outcome) => (Result.isSuccess(outcome) ? "accepted" : outcome.failure._tag))),
            { accepted: cap, PlanLimitExceeded: writers - cap }
          )
          const sql = yield* SqlClient.SqlClient
          const stored = yield* Effect.flatMap(
            sql`SELECT count(*) AS count FROM runs WHERE workspace_id = ${workspace.id}`,
            countOf
          )
          assert.strictEqual(stored, cap)
        })
    )

    it.effect(
      "two claimers racing for one workspace's runs: the database refuses the second hold, the loser claims elsewhere",
      () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const runs = yield* RunRepository
          yield* drainRuns
          const workspace = yield* seedWorkspace()
          const first = yield* seedRun(workspace.id, { createdAt: fixtureNow })
          const second = yield* seedRun(workspace.id, { createdAt: fixtureNow + 1 })
          const elsewhere = yield* seedRun((yield* seedWorkspace()).id, { createdAt: fixtureNow + 2 })
          const now = fixtureNow + minuteMs
          const claim = (owner: string) => runs.claimNext(owner, now, now + minuteMs)

          // The holder claims the first run in a transaction left open until the racer waits on it.
          const held = yield* Deferred.make<void>()
          const commit = yield* Deferred.make<void>()
          const holder = yield* sql
            .withTransaction(
              Effect.tap(claim("holder"), () =>
                Deferred.succeed(held, undefined).pipe(Effect.andThen(Deferred.await(commit)))
              )
            )
            .pipe(Effect.forkChild)
          yield* Deferred.await(held)
          // The racer sees no committed hold: it skips the locked first run, takes the second, and
          // its hold waits on the holder's uncommitted one (the unique index on held runs).
          const racer = yield* Effect.forkChild(claim("racer"))
          yield* Effect.flatMap(
            sql`SELECT count(*) AS count FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock'`,
            countOf
          ).pipe(
            Effect.flatMap((waiting) => (waiting > 0 ? Effect.void : Effect.fail("not yet" as const))),
            Effect.retry(Schedule.spaced(Duration.millis(10))),
            Effect.timeout(Duration.seconds(10)),
            Effect.orDie,
            TestClock.withLive
          )
          yield* Deferred.succeed(commit, undefined)
          assert.strictEqual(Option.getOrUndefined(yield* Fiber.join(holder))?.id, first.id)
          assert.strictEqual(
            Option.getOrUndefined(yield* Fiber.join(racer))?.id,
            elsewhere.id,
            "the loser claims again"
          )
          const owners = yield* sql<{ readonly id: string; readonly leaseOwner: string | null }>`
            SELECT id, lease_owner FROM runs WHERE id IN (${first.id}, ${second.id}) ORDER BY created_at`
          assert.deepStrictEqual(
            owners.map((row) => row.leaseOwner),
            ["holder", null]
          )
        })
    )
  }
)
