import { assert, describe, it } from "@effect/vitest"
import { Effect, HashMap } from "effect"
import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { MemoryDatabase } from "../../src/memory/MemoryDatabase.ts"
import { aWorkspace } from "../testing/Fixtures.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"

const insertAndCount = Effect.gen(function* () {
  yield* WorkspaceRepository.use((workspaces) => workspaces.insert(aWorkspace()))
  const tables = yield* MemoryDatabase.use((db) => db.snapshot)
  return HashMap.size(tables.workspaces)
})

describe("MemoryAdapters.layer", () => {
  it.effect("every provide builds a fresh database, so tests never share rows", () =>
    Effect.gen(function* () {
      assert.strictEqual(yield* Effect.provide(insertAndCount, MemoryAdapters.layer), 1)
      assert.strictEqual(yield* Effect.provide(insertAndCount, MemoryAdapters.layer), 1)
    })
  )

  it.effect("the repositories write into the MemoryDatabase the layer exposes", () =>
    Effect.gen(function* () {
      yield* MemoryDatabase.use((db) => db.update((tables) => ({ ...tables, workspaces: HashMap.empty() })))
      assert.strictEqual(yield* insertAndCount, 1)
    }).pipe(Effect.provide(MemoryAdapters.layer))
  )
})
