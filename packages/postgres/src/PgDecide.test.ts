import { assert, layer } from "@effect/vitest"
import * as Outcome from "@margin/core/kernel/Outcome"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { decideAndSave, type VersionedRows } from "./PgDecide.ts"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

interface Thing {
  readonly id: string
  readonly workspaceId: string
  readonly version: number
  readonly status: "new" | "done"
}

/** Rows whose stored version moves on `losses` times before a save can win; counts the calls. */
const racingRows = (losses: number) => {
  let stored: Thing = { id: "thing_1", workspaceId: "ws_1", version: 1, status: "new" }
  const calls = { locks: 0, saves: 0 }
  const rows: VersionedRows<Thing> = {
    lock: Effect.sync(() => {
      calls.locks++
      return Option.some(stored)
    }),
    save: (after, before) =>
      Effect.sync(() => {
        calls.saves++
        if (calls.saves <= losses) {
          // Another writer saved first: the version moved on.
          stored = { ...stored, version: stored.version + 1 }
          return Option.none()
        }
        if (before.version !== stored.version) return Option.none()
        stored = after
        return Option.some(after)
      })
  }
  return { rows, calls }
}

const finish = (current: Thing) =>
  current.status === "new"
    ? Outcome.transitioned(current, { ...current, status: "done" as const, version: 99, id: "changed" })
    : Outcome.idempotentRepeat(current)

layer(PgTestAdapters.layer, { timeout: "2 minutes" })(`decideAndSave (${PgTestAdapters.backend})`, (it) => {
  it.effect("saves a transition with the keys kept and the version bumped", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const { rows, calls } = racingRows(0)
      const outcome = yield* expectSomeOutcome(decideAndSave(sql, "test", rows, finish))
      assert.strictEqual(outcome._tag, "Transitioned")
      assert.deepStrictEqual(Outcome.current(outcome), {
        id: "thing_1",
        workspaceId: "ws_1",
        version: 2,
        status: "done"
      })
      assert.deepStrictEqual(calls, { locks: 1, saves: 1 })
    })
  )

  it.effect("a lost compare-and-swap reloads and decides again on the newer row", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const { rows, calls } = racingRows(2)
      let decided = 0
      const outcome = yield* expectSomeOutcome(
        decideAndSave(sql, "test", rows, (current) => {
          decided++
          return finish(current)
        })
      )
      assert.strictEqual(outcome._tag, "Transitioned")
      assert.strictEqual(Outcome.current(outcome).version, 4, "decided on version 3, saved as 4")
      assert.strictEqual(decided, 3)
      assert.deepStrictEqual(calls, { locks: 3, saves: 3 })
    })
  )

  it.effect("gives up with a RepositoryError after three lost swaps", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const { rows, calls } = racingRows(10)
      const error = yield* Effect.flip(decideAndSave(sql, "Thing.update", rows, finish))
      assert.strictEqual(error._tag, "RepositoryError")
      assert.strictEqual(error.operation, "Thing.update")
      assert.deepStrictEqual(calls, { locks: 3, saves: 3 })
    })
  )

  it.effect("a repeat or a conflict saves nothing; no row is None without deciding", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const { rows, calls } = racingRows(0)
      const repeat = yield* expectSomeOutcome(decideAndSave(sql, "test", rows, Outcome.idempotentRepeat))
      assert.strictEqual(repeat._tag, "IdempotentRepeat")
      const conflict = yield* expectSomeOutcome(
        decideAndSave(sql, "test", rows, (current) => Outcome.conflict(current, "no"))
      )
      assert.strictEqual(conflict._tag, "Conflict")
      assert.strictEqual(calls.saves, 0)
      let decided = 0
      const none = yield* decideAndSave(sql, "test", { ...rows, lock: Effect.succeedNone }, (current) => {
        decided++
        return finish(current)
      })
      assert.isTrue(Option.isNone(none))
      assert.strictEqual(decided, 0)
    })
  )
})

const expectSomeOutcome = <A, E, R>(effect: Effect.Effect<Option.Option<A>, E, R>) =>
  Effect.flatMap(effect, (found) =>
    Option.isSome(found) ? Effect.succeed(found.value) : Effect.die("expected an outcome")
  )
