import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as MemoryIdGenerator from "../../src/memory/MemoryIdGenerator.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { idGeneratorContract } from "../testing/IdGeneratorContract.ts"

idGeneratorContract("memory", MemoryIdGenerator.layer)

describe("MemoryIdGenerator", () => {
  it.effect("counts each kind from 1, so tests can name the ids they will get", () =>
    Effect.gen(function* () {
      const ids = yield* IdGenerator
      const drawn = [
        yield* ids.next("recommendation"),
        yield* ids.next("recommendation"),
        yield* ids.next("alert"),
        yield* ids.next("recommendation")
      ]
      assert.deepStrictEqual(drawn, ["rec_000001", "rec_000002", "alt_000001", "rec_000003"])
    }).pipe(Effect.provide(MemoryIdGenerator.layer))
  )

  it("pads to six digits and keeps counting beyond", () => {
    assert.strictEqual(MemoryIdGenerator.formatId("writeBack", 42), "wb_000042")
    assert.strictEqual(MemoryIdGenerator.formatId("run", 1_234_567), "run_1234567")
  })
})
