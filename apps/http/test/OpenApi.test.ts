import { assert, layer } from "@effect/vitest"
import { operationCatalogue } from "@margin/core/operations/OperationCatalogue"
import { bodyOf, call, layer as testServer } from "@margin/runtime/testing/TestServer"
import { Effect } from "effect"
import { operations } from "./Operations.ts"

/** docs/contract.md, "Lists, reports, the OpenAPI document": the machine-readable description, generated from the same HttpApi that serves. */

const record = (value: unknown): Readonly<Record<string, unknown>> => ({ ...Object(value) })

layer(testServer(), { excludeTestServices: true })("GET /api/v1/openapi.json", (it) => {
  it.effect("is served without authentication and describes every operation", () =>
    Effect.gen(function* () {
      const reply = yield* call("GET", "/api/v1/openapi.json")
      assert.strictEqual(reply.status, 200)
      const document = bodyOf(reply)
      assert.match(String(document.openapi), /^3\./)
      const paths = record(document.paths)
      // The contract's list (Operations.ts, written apart) covers every /api/v1 operation of the catalogue.
      assert.deepStrictEqual(
        operations.map((entry) => entry.name).sort(),
        operationCatalogue
          .filter((entry) => entry.access !== null && entry.rest !== null)
          .map((entry) => entry.id)
          .sort()
      )
      for (const entry of operations) {
        const template = entry.path
          .split("?")[0]
          ?.replace(/\/(run|rec|alt)_missing/, (_, kind: string) =>
            kind === "run" ? "/{run_id}" : kind === "rec" ? "/{recommendation_id}" : "/{alert_id}"
          )
        const described = record(record(paths[template ?? ""])[entry.method.toLowerCase()])
        assert.strictEqual(described.operationId?.toString().endsWith(`.${entry.name}`), true, entry.name)
        // Every operation takes an API token; approve, reject and workspace status a session JWT too.
        const security = entry.session ? [{ apiToken: [] }, { sessionJwt: [] }] : [{ apiToken: [] }]
        assert.deepStrictEqual(described.security, security, entry.name)
        assert.include(String(described.description), entry.scope)
        assert.isAbove(String(described.summary ?? "").length, 0, `${entry.name} has a summary`)
        assert.strictEqual(described["x-margin-scope"], entry.scope, entry.name)
        const decides = entry.name === "approveRecommendation" || entry.name === "rejectRecommendation"
        assert.strictEqual(described["x-margin-role"], decides ? "approver" : undefined, entry.name)
        // Nothing is deprecated in production (Deprecations.test.ts deprecates operations of its own).
        assert.notProperty(described, "deprecated", "no v1 operation is deprecated today")
        const responses = record(described.responses)
        assert.property(responses, "401", entry.name)
        assert.property(responses, "429", entry.name)
        assert.property(record(record(responses["429"]).headers), "retry-after")
      }
      // Authentication reads the header itself (no HttpApiSecurity); the document still names both schemes.
      const schemes = record(record(document.components).securitySchemes)
      assert.deepStrictEqual(Object.keys(schemes).sort(), ["apiToken", "sessionJwt"])
      assert.deepInclude(record(schemes.apiToken), { type: "http", scheme: "Bearer", bearerFormat: "pck_…" })
      assert.deepInclude(record(schemes.sessionJwt), { type: "http", scheme: "Bearer", bearerFormat: "JWT" })
      // Each tag (a group of operations) says what it holds.
      const tags = Array.isArray(document.tags) ? document.tags.map(record) : []
      assert.deepStrictEqual(tags.map((tag) => tag.name).sort(), [
        "alerts",
        "catalog",
        "recommendations",
        "reports",
        "runs",
        "system",
        "workspace"
      ])
      for (const tag of tags) assert.isAbove(String(tag.description ?? "").length, 0, String(tag.name))
      assert.deepStrictEqual(record(record(paths["/healthz"]).get).security, [])
      assert.property(paths, "/healthz")
      assert.property(paths, "/readyz")
    })
  )

  it.effect("health and readiness answer without authentication", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual((yield* call("GET", "/healthz")).json, { status: "ok" })
      assert.deepStrictEqual((yield* call("GET", "/readyz")).json, { status: "ready" })
    })
  )
})
