import { assert, describe, it } from "@effect/vitest"
import { pathOf } from "./RequestPath.ts"

describe("pathOf", () => {
  it("keeps the path and drops the query and the fragment", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["/api/v1/runs", "/api/v1/runs"],
      ["/api/v1/runs?limit=5", "/api/v1/runs"],
      ["/api/v1/runs#top", "/api/v1/runs"],
      ["/api/v1/runs?a=1#b?c", "/api/v1/runs"],
      ["/a#b?c", "/a"],
      ["?only=query", ""],
      ["", ""]
    ]
    for (const [url, path] of cases) assert.strictEqual(pathOf(url), path, url)
  })
})
