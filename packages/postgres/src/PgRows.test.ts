import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { firstCount, transitionChanges } from "./PgRows.ts"

interface Thing {
  readonly id: string
  readonly workspaceId: string
  readonly status: string
  readonly note: string | null
  readonly decidedAt: Date | null
  readonly version: number
  readonly createdAt: Date
}

const fields = { id: 0, workspace_id: 0, status: 0, note: 0, decided_at: 0, version: 0, created_at: 0 }
const toRow = (thing: Thing) => ({
  id: thing.id,
  workspace_id: thing.workspaceId,
  status: thing.status,
  note: thing.note,
  decided_at: thing.decidedAt,
  version: thing.version,
  created_at: thing.createdAt
})
const changes = transitionChanges({ fields }, toRow)

const before: Thing = {
  id: "thing_1",
  workspaceId: "ws_1",
  status: "new",
  note: null,
  decidedAt: null,
  version: 1,
  createdAt: new Date("2026-11-01T00:00:00Z")
}

describe("transitionChanges", () => {
  it("writes only the columns whose values differ, with their new values", () => {
    const decidedAt = new Date("2026-11-02T00:00:00Z")
    const after = { ...before, status: "accepted", decidedAt, version: 2 }
    assert.deepStrictEqual(changes(before, after), { status: "accepted", decided_at: decidedAt, version: 2 })
  })

  it("never writes the keys or the creation instant, even when the entity carries others", () => {
    const after = { ...before, id: "thing_2", workspaceId: "ws_2", createdAt: new Date(0), version: 2 }
    assert.deepStrictEqual(changes(before, after), { version: 2 })
  })

  it("compares instants by their time, and tells null from a value", () => {
    const at = new Date("2026-11-02T00:00:00Z")
    const decided = { ...before, decidedAt: at }
    assert.deepStrictEqual(changes(decided, { ...decided, decidedAt: new Date(at.getTime()) }), {})
    assert.deepStrictEqual(changes(decided, { ...decided, decidedAt: null }), { decided_at: null })
    assert.deepStrictEqual(changes(before, { ...before, note: "" }), { note: "" })
  })
})

describe("firstCount", () => {
  it.effect("reads the first row's count, as a number or as a bigint, and None without a row", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* firstCount([{ count: 3 }, { count: 9 }]), Option.some(3))
      assert.deepStrictEqual(yield* firstCount([{ count: 5n }]), Option.some(5))
      assert.deepStrictEqual(yield* firstCount([]), Option.none())
    })
  )

  it.effect("refuses a count that is not an integer", () =>
    Effect.gen(function* () {
      for (const count of [1.5, "3", null, Number.NaN]) {
        const exit = yield* Effect.exit(firstCount([{ count }]))
        assert.strictEqual(exit._tag, "Failure", String(count))
      }
    })
  )
})
