import { assert, describe, it } from "@effect/vitest"
import { nulArgumentIssues } from "./NulArguments.ts"

describe("nulArgumentIssues", () => {
  it("names every argument holding a NUL, at any depth, and nothing else", () => {
    assert.deepStrictEqual(nulArgumentIssues({ id: "rec_1", limit: 5, reason: null, tags: ["a", "b"] }), [])
    assert.deepStrictEqual(
      nulArgumentIssues({ id: "rec_\0", tags: ["ok", "b\0"], nested: { note: "\0" }, limit: 5 }).map(
        (issue) => issue.path
      ),
      ["id", "tags.1", "nested.note"]
    )
    assert.deepStrictEqual(nulArgumentIssues("\0").length, 1)
  })
})
