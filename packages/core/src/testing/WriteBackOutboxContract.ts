import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { CatalogRepository } from "../catalog/CatalogRepository.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { WriteBackId } from "../kernel/Ids.ts"
import type { RecommendationRepository } from "../recommendations/RecommendationRepository.ts"
import type { RunRepository } from "../runs/RunRepository.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import type { WriteBack } from "../writeback/WriteBack.ts"
import { WriteBackOutbox } from "../writeback/WriteBackOutbox.ts"
import { dayMs, fixtureNow, minuteMs } from "./Fixtures.ts"
import { drainOutbox } from "./Leases.ts"
import { assertPaging, createdAtKey } from "./PagingContract.ts"
import { expectSome, freshId, newWriteBack, seedItem, seedRecommendation, seedRun, seedWorkspace } from "./Seed.ts"

export type WriteBackOutboxContractServices =
  | WriteBackOutbox
  | RecommendationRepository
  | RunRepository
  | CatalogRepository
  | WorkspaceRepository
  | IdGenerator

/** `count` approved recommendations of one workspace, each with an unsaved outbox row. */
const approvals = Effect.fnUntraced(function* (count: number, overrides: Partial<WriteBack> = {}) {
  const workspace = yield* seedWorkspace()
  const run = yield* seedRun(workspace.id)
  const rows: Array<WriteBack> = []
  for (let n = 0; n < count; n++) {
    const item = yield* seedItem(workspace.id, { sku: `WB-${n}` })
    const recommendation = yield* seedRecommendation(run, item, { status: "approved" })
    rows.push(yield* newWriteBack(recommendation, overrides))
  }
  return { workspace, rows }
})

const stored = Effect.fnUntraced(function* (row: WriteBack) {
  const outbox = yield* WriteBackOutbox
  return yield* expectSome(yield* outbox.getByRecommendation(row.workspaceId, row.recommendationId), "the row")
})

const idsOf = (rows: ReadonlyArray<WriteBack>) => rows.map((row) => row.id).sort()

/** One enqueued row, claimed by `a` at `fixtureNow` for a minute. */
const inFlight = Effect.gen(function* () {
  const outbox = yield* WriteBackOutbox
  const { rows } = yield* approvals(1)
  const [row] = rows
  yield* outbox.enqueue(row)
  yield* expectSome(yield* outbox.claim(row.id, "a", fixtureNow, fixtureNow + minuteMs), "a claim")
  return row
})

/** The WriteBackOutbox port's contract: every adapter must pass it. */
export const writeBackOutboxContract = <E>(name: string, services: Layer.Layer<WriteBackOutboxContractServices, E>) =>
  layer(services)(`WriteBackOutbox contract (${name})`, (it) => {
    it.effect("enqueue keeps one row per recommendation, found in its own workspace only", () =>
      Effect.gen(function* () {
        const outbox = yield* WriteBackOutbox
        const { workspace, rows } = yield* approvals(1)
        const other = yield* seedWorkspace()
        const [row] = rows
        yield* outbox.enqueue(row)
        yield* outbox.enqueue({ ...row, id: yield* freshId("writeBack", WriteBackId.make), attempts: 7 })
        assert.deepStrictEqual(yield* outbox.getByRecommendation(workspace.id, row.recommendationId), Option.some(row))
        assert.isTrue(Option.isNone(yield* outbox.getByRecommendation(other.id, row.recommendationId)))
      })
    )

    it.effect("claim takes a due row for one holder at a time and counts the attempt", () =>
      Effect.gen(function* () {
        const outbox = yield* WriteBackOutbox
        const { rows } = yield* approvals(1, { nextAttemptAt: fixtureNow })
        const [row] = rows
        yield* outbox.enqueue(row)
        assert.isTrue(
          Option.isNone(yield* outbox.claim(row.id, "a", fixtureNow - 1, fixtureNow + minuteMs)),
          "not due yet"
        )
        const claimed = yield* expectSome(
          yield* outbox.claim(row.id, "a", fixtureNow, fixtureNow + minuteMs),
          "a claim"
        )
        assert.strictEqual(claimed.status, "in_flight")
        assert.strictEqual(claimed.attempts, 1)
        assert.deepStrictEqual(yield* stored(row), claimed)
        assert.isTrue(Option.isNone(yield* outbox.claim(row.id, "b", fixtureNow + 30_000, fixtureNow + 2 * minuteMs)))
        const retaken = yield* expectSome(
          yield* outbox.claim(row.id, "b", fixtureNow + minuteMs, fixtureNow + 2 * minuteMs),
          "a claim once the lease ran out"
        )
        assert.strictEqual(retaken.attempts, 2)
        assert.isFalse(yield* outbox.markApplied(row.id, "a", fixtureNow + minuteMs), "the old holder lost it")
        assert.isTrue(yield* outbox.markApplied(row.id, "b", fixtureNow + minuteMs))
      })
    )

    it.effect("markApplied ends the row for good", () =>
      Effect.gen(function* () {
        const outbox = yield* WriteBackOutbox
        const { rows } = yield* approvals(1)
        const [pending] = rows
        yield* outbox.enqueue(pending)
        assert.isFalse(yield* outbox.markApplied(pending.id, "a", fixtureNow), "a pending row is not in flight")
        const row = yield* inFlight
        const appliedAt = fixtureNow + 1_000
        assert.isTrue(yield* outbox.markApplied(row.id, "a", appliedAt))
        const applied = yield* stored(row)
        assert.strictEqual(applied.status, "applied")
        assert.strictEqual(applied.appliedAt, appliedAt)
        assert.isFalse(yield* outbox.markApplied(row.id, "a", appliedAt))
        assert.isTrue(
          Option.isNone(yield* outbox.claim(row.id, "b", fixtureNow + dayMs, fixtureNow + dayMs + minuteMs))
        )
      })
    )

    it.effect("scheduleRetry puts the row back until its next attempt", () =>
      Effect.gen(function* () {
        const outbox = yield* WriteBackOutbox
        const row = yield* inFlight
        const retryAt = fixtureNow + 5 * minuteMs
        assert.isFalse(yield* outbox.scheduleRetry(row.id, "b", retryAt, "not the holder"))
        assert.isTrue(yield* outbox.scheduleRetry(row.id, "a", retryAt, "store unavailable"))
        const pending = yield* stored(row)
        assert.deepStrictEqual(
          { status: pending.status, nextAttemptAt: pending.nextAttemptAt, lastError: pending.lastError },
          { status: "pending", nextAttemptAt: retryAt, lastError: "store unavailable" }
        )
        assert.isTrue(Option.isNone(yield* outbox.claim(row.id, "b", retryAt - 1, retryAt + minuteMs)))
        const again = yield* expectSome(yield* outbox.claim(row.id, "b", retryAt, retryAt + minuteMs), "the retry")
        assert.strictEqual(again.attempts, 2)
      })
    )

    it.effect("markFailed gives the row up for good", () =>
      Effect.gen(function* () {
        const outbox = yield* WriteBackOutbox
        const row = yield* inFlight
        assert.isFalse(yield* outbox.markFailed(row.id, "b", "not the holder", fixtureNow))
        assert.isTrue(yield* outbox.markFailed(row.id, "a", "price drifted", fixtureNow))
        const failed = yield* stored(row)
        assert.strictEqual(failed.status, "failed")
        assert.strictEqual(failed.lastError, "price drifted")
        assert.isTrue(
          Option.isNone(yield* outbox.claim(row.id, "b", fixtureNow + dayMs, fixtureNow + dayMs + minuteMs))
        )
      })
    )

    it.effect("cancelPending ends a pending row of its workspace only, never one in flight", () =>
      Effect.gen(function* () {
        const outbox = yield* WriteBackOutbox
        const { rows } = yield* approvals(1)
        const [row] = rows
        yield* outbox.enqueue(row)
        const other = yield* seedWorkspace()
        assert.isFalse(yield* outbox.cancelPending(other.id, row.id, "cancelled"), "another workspace's row")
        assert.isTrue(yield* outbox.cancelPending(row.workspaceId, row.id, "cancelled by usr_1"))
        const cancelled = yield* stored(row)
        assert.deepStrictEqual([cancelled.status, cancelled.lastError], ["failed", "cancelled by usr_1"])
        assert.isFalse(yield* outbox.cancelPending(row.workspaceId, row.id, "again"), "only once")
        assert.isTrue(Option.isNone(yield* outbox.claim(row.id, "a", fixtureNow + dayMs, fixtureNow + dayMs + 1)))
        const claimed = yield* inFlight
        assert.isFalse(yield* outbox.cancelPending(claimed.workspaceId, claimed.id, "cancelled"), "in flight")
        assert.strictEqual((yield* stored(claimed)).status, "in_flight")
      })
    )

    it.effect("claimDue takes up to `limit` due rows, longest waiting first", () =>
      Effect.gen(function* () {
        const outbox = yield* WriteBackOutbox
        yield* drainOutbox
        const { rows } = yield* approvals(4)
        const [late, early, middle, notDue] = rows
        const now = fixtureNow + 10 * minuteMs
        yield* outbox.enqueue({ ...late, nextAttemptAt: now })
        yield* outbox.enqueue({ ...early, nextAttemptAt: now - 2 * minuteMs })
        yield* outbox.enqueue({ ...middle, nextAttemptAt: now - minuteMs })
        yield* outbox.enqueue({ ...notDue, nextAttemptAt: now + 1 })
        const lease = now + minuteMs
        const first = yield* outbox.claimDue("a", now, lease, 2)
        assert.deepStrictEqual(
          first.map((row) => row.id),
          [early.id, middle.id]
        )
        assert.isTrue(first.every((row) => row.status === "in_flight" && row.attempts === 1))
        assert.deepStrictEqual(idsOf(yield* outbox.claimDue("b", now, lease, 2)), [late.id])
        assert.deepStrictEqual(yield* outbox.claimDue("c", now, lease, 2), [])
      })
    )

    it.effect("concurrent claimers never get the same row", () =>
      Effect.gen(function* () {
        const outbox = yield* WriteBackOutbox
        yield* drainOutbox
        const { rows } = yield* approvals(5)
        for (const row of rows) yield* outbox.enqueue(row)
        const claims = yield* Effect.all(
          Array.from({ length: 4 }, (_, n) => outbox.claimDue(`worker-${n}`, fixtureNow, fixtureNow + minuteMs, 2)),
          { concurrency: "unbounded" }
        )
        const claimed = claims.flat().map((row) => row.id)
        assert.strictEqual(claimed.length, 5)
        assert.deepStrictEqual([...new Set(claimed)].sort(), idsOf(rows))
      })
    )

    it.effect("depth counts the rows not yet applied or failed, and the age of the oldest", () =>
      Effect.gen(function* () {
        const outbox = yield* WriteBackOutbox
        const now = fixtureNow + minuteMs
        const before = yield* outbox.depth(now)
        const { rows } = yield* approvals(3, { createdAt: fixtureNow - dayMs })
        const [applied, failed, waiting] = rows
        for (const row of rows) yield* outbox.enqueue(row)
        assert.strictEqual((yield* outbox.depth(now)).count, before.count + 3)
        yield* outbox.claim(applied.id, "a", fixtureNow, now)
        yield* outbox.markApplied(applied.id, "a", fixtureNow)
        yield* outbox.claim(failed.id, "a", fixtureNow, now)
        yield* outbox.markFailed(failed.id, "a", "gave up", fixtureNow)
        const after = yield* outbox.depth(now)
        assert.strictEqual(after.count, before.count + 1)
        assert.isAtLeast(after.oldestAgeMs ?? -1, now - waiting.createdAt)
      })
    )
    it.effect("an undo row stands beside its approval's: one per write-back, found in its own workspace only", () =>
      Effect.gen(function* () {
        const outbox = yield* WriteBackOutbox
        const { workspace, rows } = yield* approvals(1)
        const other = yield* seedWorkspace()
        const [row] = rows
        yield* outbox.enqueue(row)
        assert.isTrue(Option.isNone(yield* outbox.getUndoOf(workspace.id, row.id)), "none before the undo")
        const undo: WriteBack = {
          ...row,
          id: yield* freshId("writeBack", WriteBackId.make),
          idempotencyKey: `${row.recommendationId}:undo`,
          payload: { ...row.payload, oldPrice: row.payload.newPrice, newPrice: row.payload.oldPrice },
          createdAt: row.createdAt + minuteMs,
          undo: { of: row.id, by: "user:usr_someone" }
        }
        yield* outbox.enqueue(undo)
        // A second undo of the same write-back is a no-op: the first stays.
        yield* outbox.enqueue({
          ...undo,
          id: yield* freshId("writeBack", WriteBackId.make),
          idempotencyKey: `${row.recommendationId}:undo:2`
        })
        assert.deepStrictEqual(yield* outbox.getUndoOf(workspace.id, row.id), Option.some(undo))
        assert.isTrue(Option.isNone(yield* outbox.getUndoOf(other.id, row.id)))
        assert.deepStrictEqual(yield* outbox.getByRecommendation(workspace.id, row.recommendationId), Option.some(row))
        // Delivered like any row: claimed when due.
        const claimed = yield* expectSome(
          yield* outbox.claim(undo.id, "a", undo.nextAttemptAt, undo.nextAttemptAt + minuteMs),
          "a claim of the undo"
        )
        assert.deepStrictEqual(claimed.undo, undo.undo)
      })
    )

    it.effect("listApprovals pages a workspace's approval rows newest first, without undo rows", () =>
      Effect.gen(function* () {
        const outbox = yield* WriteBackOutbox
        const { workspace, rows } = yield* approvals(3)
        const dated = rows.map((row, n) => ({ ...row, createdAt: fixtureNow + n * minuteMs }))
        for (const row of dated) yield* outbox.enqueue(row)
        const [oldest, middle, newest] = dated
        yield* outbox.enqueue({
          ...oldest,
          id: yield* freshId("writeBack", WriteBackId.make),
          idempotencyKey: `${oldest.recommendationId}:undo`,
          createdAt: fixtureNow + dayMs,
          undo: { of: oldest.id, by: "user:usr_someone" }
        })
        yield* approvals(1).pipe(Effect.flatMap(({ rows: theirs }) => Effect.forEach(theirs, outbox.enqueue)))
        yield* assertPaging(
          (request) => outbox.listApprovals(workspace.id, request),
          createdAtKey,
          [newest, middle, oldest],
          2
        )
      })
    )
  })
