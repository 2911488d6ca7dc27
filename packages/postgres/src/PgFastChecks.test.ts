import { assert, describe, it } from "@effect/vitest"
import { RecommendationId, WorkspaceId } from "@margin/core/kernel/Ids"
import { Schema } from "effect"
import { stringOf } from "./PgFastChecks.ts"

const values: ReadonlyArray<unknown> = ["rec_1", "", " ", "x".repeat(300), 1, 0n, null, undefined, {}, ["rec_1"], true]

describe("stringOf", () => {
  it("answers what Schema.is answers, for ids (branded strings) and for a string schema with checks", () => {
    const schemas = [
      RecommendationId,
      WorkspaceId,
      Schema.String.pipe(Schema.check(Schema.isMinLength(1)), Schema.brand("Named"))
    ]
    for (const schema of schemas) {
      const fast = stringOf(schema)
      const is = Schema.is(schema)
      for (const value of values) assert.strictEqual(fast(value), is(value), String(value))
    }
  })

  it("refuses the empty string where the schema's own check does", () => {
    assert.isFalse(stringOf(Schema.String.pipe(Schema.check(Schema.isMinLength(1))))(""))
    assert.isTrue(stringOf(RecommendationId)(""))
  })
})
