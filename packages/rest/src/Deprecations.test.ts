import { assert, describe, it } from "@effect/vitest"
import { deprecatedGetRun, deprecatedListRuns } from "@margin/core/testing/Deprecations"
import { productionDeprecations } from "@margin/edge/wire"
import { Effect } from "effect"
import { Api } from "./Api.ts"
import * as Deprecations from "./Deprecations.ts"

// What the wire says of a deprecated operation; the served headers: apps/http/test/Deprecations.test.ts.

const listRuns = deprecatedListRuns
const getRun = deprecatedGetRun

describe("Deprecations.headersOf", () => {
  it("RFC 9745 Deprecation is @ the notice's epoch seconds; RFC 8594 Sunset an IMF-fixdate; Link when given", () => {
    assert.deepStrictEqual(Deprecations.headersOf(listRuns), {
      deprecation: "@1768435200",
      sunset: "Wed, 15 Jul 2026 00:00:00 GMT",
      link: '<https://docs.example/deprecations/list-runs>; rel="deprecation"'
    })
    assert.deepStrictEqual(Deprecations.headersOf(getRun), {
      deprecation: "@1769904000",
      sunset: "Mon, 31 Aug 2026 00:00:00 GMT"
    })
  })
})

describe("Deprecations.resolve", () => {
  it("every operation a deprecation may name is an endpoint of the API", () => {
    const all = Effect.runSync(Deprecations.resolve(Api, new Map(productionDeprecations.map((d) => [d.operation, d]))))
    assert.strictEqual(all.length, productionDeprecations.length)
  })
})
