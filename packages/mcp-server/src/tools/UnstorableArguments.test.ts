import { assert, describe, it } from "@effect/vitest"
import { unstorableArgumentIssues } from "./UnstorableArguments.ts"

describe("unstorableArgumentIssues", () => {
  it("names every argument holding a NUL, at any depth, and nothing else", () => {
    assert.deepStrictEqual(unstorableArgumentIssues({ id: "rec_1", limit: 5, reason: null, tags: ["a", "b"] }), [])
    assert.deepStrictEqual(
      unstorableArgumentIssues({ id: "rec_\0", tags: ["ok", "b\0"], nested: { note: "\0" }, limit: 5 }).map(
        (issue) => issue.path
      ),
      ["id", "tags.1", "nested.note"]
    )
    assert.deepStrictEqual(unstorableArgumentIssues("\0").length, 1)
  })

  it("names every argument holding a lone surrogate; a pair is one character and fine", () => {
    assert.deepStrictEqual(unstorableArgumentIssues({ reason: "caf\u00e9 \ud83d\ude00", tags: ["\u00e9"] }), [])
    assert.deepStrictEqual(
      unstorableArgumentIssues({ reason: "a\ud800b", tags: ["ok", "\udc00"], nested: { note: "\ud83d" } }).map(
        (issue) => issue.path
      ),
      ["reason", "tags.1", "nested.note"]
    )
  })
})
