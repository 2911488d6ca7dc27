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
          ?.replace(/\/(run|rec|alt|imp|syn)_missing/, (_, kind: string) =>
            kind === "run"
              ? "/{run_id}"
              : kind === "rec"
                ? "/{recommendation_id}"
                : kind === "imp"
                  ? "/{import_id}"
                  : kind === "syn"
                    ? "/{sync_id}"
                    : "/{alert_id}"
          )
        const described = record(record(paths[template ?? ""])[entry.method.toLowerCase()])
        assert.strictEqual(described.operationId?.toString().endsWith(`.${entry.name}`), true, entry.name)
        // Every operation takes an API token; approve, reject, undo and workspace status a session JWT too.
        const security = entry.session ? [{ apiToken: [] }, { sessionJwt: [] }] : [{ apiToken: [] }]
        assert.deepStrictEqual(described.security, security, entry.name)
        assert.include(String(described.description), entry.scope)
        assert.isAbove(String(described.summary ?? "").length, 0, `${entry.name} has a summary`)
        assert.strictEqual(described["x-margin-scope"], entry.scope, entry.name)
        const decides = ["approveRecommendation", "rejectRecommendation", "undoPriceChange"].includes(entry.name)
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
      // Lowercase, as registered with IANA: orval's validator refuses "Bearer".
      assert.deepInclude(record(schemes.apiToken), { type: "http", scheme: "bearer", bearerFormat: "pck_…" })
      assert.deepInclude(record(schemes.sessionJwt), { type: "http", scheme: "bearer", bearerFormat: "JWT" })
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

  it.effect("is exact: the envelope with request_id, open responses, strict requests, headers, limit, examples", () =>
    Effect.gen(function* () {
      const document = bodyOf(yield* call("GET", "/api/v1/openapi.json"))
      const schemas = record(record(document.components).schemas)
      const paths = record(document.paths)
      // Every component has an example; every error body declares request_id; the 429's too.
      for (const [name, schema] of Object.entries(schemas)) {
        assert.isArray(record(schema).examples, name)
        if (name.endsWith("Error")) assert.include(record(schema).required, "request_id", name)
      }
      assert.include(record(schemas.RateLimitedError).required, "request_id")
      // Responses open (v1 may add fields), request bodies closed.
      const closed = Object.entries(schemas)
        .filter(([, schema]) => JSON.stringify(schema).includes('"additionalProperties":false'))
        .map(([name]) => name)
        .sort()
      assert.deepStrictEqual(closed, ["RejectRecommendation", "SnoozeAlert", "TriggerRun"])
      const operation = (path: string, method: string) => record(record(paths[path])[method])
      const listRuns = operation("/api/v1/runs", "get")
      const parameters = Array.isArray(listRuns.parameters) ? listRuns.parameters.map(record) : []
      assert.deepStrictEqual(parameters.find((parameter) => parameter.name === "limit")?.schema, {
        type: "integer",
        minimum: 1,
        maximum: 200,
        default: 50
      })
      assert.deepStrictEqual(
        parameters.filter((parameter) => parameter.in === "header").map((parameter) => parameter.name),
        ["x-workspace-id", "x-request-id"]
      )
      // The server accepts POST /runs without a body; reject's and snooze's are required.
      assert.strictEqual(record(operation("/api/v1/runs", "post").requestBody).required, false)
      assert.strictEqual(
        record(operation("/api/v1/recommendations/{recommendation_id}/reject", "post").requestBody).required,
        true
      )
      const statuses = (path: string, method: string) => Object.keys(record(operation(path, method).responses))
      assert.deepStrictEqual(statuses("/api/v1/runs", "get"), [
        "200",
        "401",
        "403",
        "413",
        "422",
        "429",
        "500",
        "503",
        "default"
      ])
      assert.deepStrictEqual(statuses("/api/v1/runs", "post"), [
        "202",
        "400",
        "401",
        "402",
        "403",
        "404",
        "413",
        "415",
        "422",
        "429",
        "500",
        "503",
        "default"
      ])
      // Only path parameters: nothing to fail validation, no body to be unreadable.
      assert.deepStrictEqual(statuses("/api/v1/alerts/{alert_id}/resolve", "post"), [
        "200",
        "401",
        "403",
        "404",
        "409",
        "413",
        "429",
        "500",
        "503",
        "default"
      ])
      const runResponses = record(listRuns.responses)
      assert.property(record(record(runResponses["429"]).headers), "retry-after")
      assert.property(record(record(runResponses["503"]).headers), "retry-after")
      assert.property(record(record(runResponses["401"]).headers), "www-authenticate")
      for (const response of Object.values(runResponses))
        assert.property(record(record(response).headers), "x-request-id")
      // The export answers CSV or JSON by Accept.
      const exported = record(record(record(operation("/api/v1/reports/export", "get").responses)["200"]).content)
      assert.deepStrictEqual(Object.keys(exported).sort(), ["application/json", "text/csv"])
      // No fixed address: relative to where the document is served, unless PUBLIC_URL says (below).
      assert.deepStrictEqual(document.servers, [{ url: "/", description: "The origin this document is served from" }])
      assert.isString(record(record(document.info).license).name)
      for (const tag of Array.isArray(document.tags) ? document.tags : []) assert.isString(record(tag).description)
    })
  )

  it.effect("says what generators need: open response enums, const booleans, integer Retry-After, input forms", () =>
    Effect.gen(function* () {
      const document = bodyOf(yield* call("GET", "/api/v1/openapi.json"))
      const schemas = record(record(document.components).schemas)
      const property = (schema: string, name: string) => record(record(record(schemas[schema]).properties)[name])
      const unknownValue = { type: "string", description: "A value added within v1: ignore the ones you do not know." }
      // v1 may add enumeration values, and clients must ignore them: every response enum is open.
      for (const [schema, name] of [
        ["Run", "status"],
        ["Recommendation", "status"],
        ["Recommendation", "rule"],
        ["Alert", "kind"],
        ["Alert", "severity"],
        ["WriteBackState", "status"],
        ["Error", "code"],
        ["InsufficientScopeError", "required"]
      ] as const) {
        const members = property(schema, name).anyOf
        assert.isArray(members, `${schema}.${name}`)
        assert.deepStrictEqual(Array.isArray(members) ? members[1] : undefined, unknownValue, `${schema}.${name}`)
      }
      assert.includeMembers(
        [property("Run", "status").anyOf].flat().flatMap((member) => [record(member).enum].flat()),
        ["queued", "running", "succeeded"]
      )
      // An error body's one code names its schema; requests (a filter, a body) stay closed.
      assert.deepStrictEqual(property("RateLimitedError", "code").enum, ["rate_limited"])
      const text = JSON.stringify(document)
      assert.notInclude(text, '"anyOf":[{"type":"boolean"')
      assert.notInclude(text, '"enum":[true]')
      assert.notInclude(text, '"enum":[false]')
      assert.deepInclude(property("IdempotentRepeat", "idempotent"), { type: "boolean", const: true })
      assert.deepInclude(property("RecommendationApproved", "idempotent"), { type: "boolean", const: false })
      const paths = record(document.paths)
      const listRuns = record(record(paths["/api/v1/runs"]).get)
      const parameters = Array.isArray(listRuns.parameters) ? listRuns.parameters.map(record) : []
      const status = record(parameters.find((parameter) => parameter.name === "status")?.schema)
      assert.isArray(status.enum)
      const cursor = record(parameters.find((parameter) => parameter.name === "cursor")?.schema)
      assert.match("lxyz12.rec_0001", new RegExp(String(cursor.pattern)))
      assert.notMatch("not a cursor", new RegExp(String(cursor.pattern)))
      const listItems = record(record(paths["/api/v1/catalog/items"]).get)
      const tag = record(
        (Array.isArray(listItems.parameters) ? listItems.parameters.map(record) : []).find((p) => p.name === "tag")
          ?.schema
      )
      assert.match("kitchen", new RegExp(String(tag.pattern), "u"))
      assert.notMatch("a,b", new RegExp(String(tag.pattern), "u"))
      assert.strictEqual(record(record(property("TriggerRun", "subset_tags")).items).pattern, tag.pattern)
      assert.strictEqual(property("SnoozeAlert", "snooze_until").format, "date-time")
      for (const status of ["429", "503"]) {
        const headers = record(record(record(listRuns.responses)[status]).headers)
        assert.deepStrictEqual(record(headers["retry-after"]).schema, { type: "integer", minimum: 0 }, status)
      }
    })
  )

  it.effect("health and readiness answer without authentication", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual((yield* call("GET", "/healthz")).json, { status: "ok" })
      assert.deepStrictEqual((yield* call("GET", "/readyz")).json, { status: "ready" })
    })
  )
})

layer(testServer({ publicUrl: "https://margin.example.test" }), { excludeTestServices: true })(
  "GET /api/v1/openapi.json with PUBLIC_URL",
  (it) => {
    it.effect("names the configured origin as its server", () =>
      Effect.gen(function* () {
        const document = bodyOf(yield* call("GET", "/api/v1/openapi.json"))
        assert.deepStrictEqual(document.servers, [
          { url: "https://margin.example.test", description: "This service (PUBLIC_URL)" }
        ])
      })
    )
  }
)
