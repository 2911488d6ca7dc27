import { assert, describe, it, layer } from "@effect/vitest"
import type { Deprecation } from "@margin/core/deprecation/Deprecation"
import { deprecatedGetRun, deprecatedListRuns } from "@margin/core/testing/Deprecations"
import { aWorkspaceWithOwner } from "@margin/edge/testing/World"
import { productionDeprecations } from "@margin/edge/wire"
import { bodyOf, call, expectError, type Reply, layer as testServer } from "@margin/runtime/testing/TestServer"
import { Effect, Exit, Layer } from "effect"

/** docs/contract.md, "Versioning and deprecation", on the wire: deprecated operations of a test's own (production has none). */

const listRuns = deprecatedListRuns
const getRun = deprecatedGetRun

interface DeprecationHeaders {
  readonly deprecation: string | undefined
  readonly sunset: string | undefined
  readonly link: string | undefined
}

const deprecationHeaders = (reply: Reply): DeprecationHeaders => ({
  deprecation: reply.headers.deprecation,
  sunset: reply.headers.sunset,
  link: reply.headers.link
})

const none: DeprecationHeaders = { deprecation: undefined, sunset: undefined, link: undefined }
const listRunsHeaders: DeprecationHeaders = {
  deprecation: "@1768435200",
  sunset: "Wed, 15 Jul 2026 00:00:00 GMT",
  link: '<https://docs.example/deprecations/list-runs>; rel="deprecation"'
}
const getRunHeaders: DeprecationHeaders = {
  deprecation: "@1769904000",
  sunset: "Mon, 31 Aug 2026 00:00:00 GMT",
  link: undefined
}

const operationsOf = (document: Readonly<Record<string, unknown>>) =>
  Object.values({ ...Object(document.paths) }).flatMap((item) =>
    Object.values({ ...Object(item) }).map((operation) => ({ ...Object(operation) }))
  )

layer(testServer({ deprecations: [listRuns, getRun] }), { excludeTestServices: true })(
  "an HTTP app with deprecated operations",
  (it) => {
    it.effect("the OpenAPI document marks exactly those operations deprecated: true", () =>
      Effect.gen(function* () {
        const document = bodyOf(yield* call("GET", "/api/v1/openapi.json"))
        const deprecated = operationsOf(document)
          .filter((operation) => operation.deprecated === true)
          .map((operation) => operation.operationId)
        assert.deepStrictEqual(deprecated.sort(), ["runs.getRun", "runs.listRuns"])
        // Marked after the API's own transform, not instead of it: the security schemes are still described.
        assert.deepStrictEqual(Object.keys(Object(Object(document.components).securitySchemes)).sort(), [
          "apiToken",
          "sessionJwt"
        ])
        for (const operation of operationsOf(document).filter((each) => String(each.operationId).includes("."))) {
          assert.deepInclude(operation.security, { apiToken: [] }, String(operation.operationId))
        }
      })
    )

    it.effect("every answer of a deprecated route carries the headers: success, 401, 422, 404, HEAD", () =>
      Effect.gen(function* () {
        const { owner } = yield* aWorkspaceWithOwner()
        const ok = yield* call("GET", "/api/v1/runs", { token: owner.token })
        assert.strictEqual(ok.status, 200)
        assert.deepStrictEqual(deprecationHeaders(ok), listRunsHeaders)
        const unauthorized = yield* call("GET", "/api/v1/runs?limit=5")
        expectError(unauthorized, 401, "unauthorized")
        assert.deepStrictEqual(deprecationHeaders(unauthorized), listRunsHeaders)
        const invalid = yield* call("GET", "/api/v1/runs?limit=many", { token: owner.token })
        expectError(invalid, 422, "validation_error")
        assert.deepStrictEqual(deprecationHeaders(invalid), listRunsHeaders)
        const missing = yield* call("GET", "/api/v1/runs/run_missing", { token: owner.token })
        expectError(missing, 404, "not_found")
        assert.deepStrictEqual(deprecationHeaders(missing), getRunHeaders)
        const head = yield* call("HEAD", "/api/v1/runs", { token: owner.token })
        assert.strictEqual(head.status, 200)
        assert.deepStrictEqual(deprecationHeaders(head), listRunsHeaders)
      })
    )

    it.effect("other routes carry none: another method on the same path, other operations, unknown paths", () =>
      Effect.gen(function* () {
        const { owner } = yield* aWorkspaceWithOwner()
        const trigger = yield* call("POST", "/api/v1/runs", { token: owner.token, body: { subset_tags: [] } })
        assert.strictEqual(trigger.status, 202)
        assert.deepStrictEqual(deprecationHeaders(trigger), none)
        const recommendations = yield* call("GET", "/api/v1/recommendations", { token: owner.token })
        assert.strictEqual(recommendations.status, 200)
        assert.deepStrictEqual(deprecationHeaders(recommendations), none)
        const notAllowed = yield* call("DELETE", "/api/v1/runs", { token: owner.token })
        expectError(notAllowed, 405, "method_not_allowed")
        assert.deepStrictEqual(deprecationHeaders(notAllowed), none)
        const unknown = yield* call("GET", "/api/v1/runs/run_1/extra", { token: owner.token })
        assert.strictEqual(unknown.status, 404)
        assert.deepStrictEqual(deprecationHeaders(unknown), none)
      })
    )
  }
)

layer(testServer(), { excludeTestServices: true })("the production HTTP app", (it) => {
  it.effect("deprecates nothing: no operation deprecated in the OpenAPI document, no deprecation headers", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(productionDeprecations, [])
      const document = bodyOf(yield* call("GET", "/api/v1/openapi.json"))
      assert.isTrue(operationsOf(document).length > 10)
      assert.isTrue(operationsOf(document).every((operation) => !("deprecated" in operation)))
      const { owner } = yield* aWorkspaceWithOwner()
      for (const path of ["/api/v1/runs", "/api/v1/runs/run_missing", "/api/v1/recommendations"]) {
        assert.deepStrictEqual(deprecationHeaders(yield* call("GET", path, { token: owner.token })), none, path)
        assert.deepStrictEqual(deprecationHeaders(yield* call("GET", path)), none, path)
      }
    })
  )
})

describe("an HTTP app whose deprecations are invalid", () => {
  const starts = (deprecations: ReadonlyArray<Deprecation>) =>
    Effect.scoped(Effect.exit(Layer.build(testServer({ deprecations }))))

  it.effect("does not start: an operation the API does not have", () =>
    Effect.gen(function* () {
      const exit = yield* starts([{ operation: "listRunz", notice: "2026-01-15", sunset: "2026-07-15" }])
      assert.isTrue(Exit.isFailure(exit))
      assert.match(String(Exit.isFailure(exit) ? exit.cause : ""), /listRunz is not an operation of the API/)
    })
  )

  it.effect("does not start: a sunset less than six months after the notice", () =>
    Effect.gen(function* () {
      const exit = yield* starts([{ operation: "listRuns", notice: "2026-01-15", sunset: "2026-07-14" }])
      assert.isTrue(Exit.isFailure(exit))
      assert.match(String(Exit.isFailure(exit) ? exit.cause : ""), /less than 6 months after the notice/)
    })
  )
})
