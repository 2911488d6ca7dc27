import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, HashMap, Option } from "effect"
import { MemoryDatabase } from "../../src/memory/MemoryDatabase.ts"
import { aWorkspace, fixtureIds } from "../testing/Fixtures.ts"

const workspaceNamed = (name: string) => aWorkspace({ name })

const write = (name: string) =>
  MemoryDatabase.use((db) =>
    db.update((tables) => ({
      ...tables,
      workspaces: HashMap.set(tables.workspaces, fixtureIds.workspace, workspaceNamed(name))
    }))
  )

const nameNow = MemoryDatabase.use((db) =>
  db.read((tables) => Option.getOrNull(Option.map(HashMap.get(tables.workspaces, fixtureIds.workspace), (w) => w.name)))
)

describe("MemoryDatabase", () => {
  it.effect("an interrupted transaction is rolled back", () =>
    Effect.gen(function* () {
      const db = yield* MemoryDatabase
      yield* write("before")
      const written = yield* Deferred.make<void>()
      const fiber = yield* Effect.forkChild(
        db.transaction(
          Effect.andThen(write("during"), Effect.andThen(Deferred.succeed(written, undefined), Effect.never))
        )
      )
      yield* Deferred.await(written)
      yield* Fiber.interrupt(fiber)
      assert.strictEqual(yield* nameNow, "before")
    }).pipe(Effect.provide(MemoryDatabase.layer))
  )

  it.effect("others wait for an open transaction: no one reads its uncommitted writes", () =>
    Effect.gen(function* () {
      const db = yield* MemoryDatabase
      yield* write("committed")
      const written = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void, string>()
      const writer = yield* Effect.forkChild(
        db.transaction(
          Effect.andThen(
            write("uncommitted"),
            Effect.andThen(Deferred.succeed(written, undefined), Deferred.await(release))
          )
        )
      )
      yield* Deferred.await(written)
      const reader = yield* Effect.forkChild(nameNow)
      yield* Effect.yieldNow
      assert.isUndefined(reader.pollUnsafe(), "the reader waits for the lock")
      yield* Deferred.fail(release, "give up")
      assert.strictEqual(yield* Fiber.join(reader), "committed")
      yield* Fiber.await(writer)
    }).pipe(Effect.provide(MemoryDatabase.layer))
  )

  it.effect("a nested transaction joins the outer one instead of waiting for itself", () =>
    Effect.gen(function* () {
      const db = yield* MemoryDatabase
      const name = yield* db.transaction(db.transaction(db.transaction(Effect.andThen(write("deep"), nameNow))))
      assert.strictEqual(name, "deep")
    }).pipe(Effect.provide(MemoryDatabase.layer))
  )

  it.effect("each layer build is a fresh, empty database", () =>
    Effect.gen(function* () {
      const tables = yield* MemoryDatabase.use((db) => db.snapshot)
      assert.strictEqual(HashMap.size(tables.workspaces), 0)
    }).pipe(Effect.provide(MemoryDatabase.layer))
  )
})
