import { assert, describe, it } from "@effect/vitest"
import { Api } from "@margin/rest/api"
import { OpenApi } from "effect/http-api"
import type { RecordedReply } from "./RecordedReplies.ts"
import { conformanceOf, servedConformance } from "./ResponseConformance.ts"

/** The check every REST test file ends with (ResponseConformanceSetup.ts) catches an answer that leaves the document. */

const run = {
  id: "run_1",
  status: "queued",
  subset_tags: [],
  trigger: "api",
  requested_by: "token:tok_1",
  items_total: null,
  items_analysed: 0,
  recommendations_count: 0,
  alerts_count: 0,
  error: null,
  created_at: "2026-11-22T07:35:53.043Z",
  started_at: null,
  finished_at: null
}

const reply = (
  method: string,
  path: string,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {}
): RecordedReply => ({
  method,
  path,
  status,
  headers: { "content-type": "application/json", "x-request-id": "req-1", ...headers },
  text: JSON.stringify(body)
})

const limited = { code: "rate_limited", message: "Rate limit exceeded: retry in 43 seconds.", request_id: "req-1" }

describe("ResponseConformance", () => {
  const conformance = servedConformance()

  it("accepts an answer as documented", () => {
    assert.deepStrictEqual(conformance.problemsOf(reply("GET", "/api/v1/runs/run_1", 200, run)), [])
    assert.deepStrictEqual(
      conformance.problemsOf(reply("GET", "/api/v1/runs?limit=1", 200, { data: [run], next_cursor: null })),
      []
    )
  })

  it("refuses a body that leaves its schema, naming the field", () => {
    const problems = conformance.problemsOf(reply("GET", "/api/v1/runs/run_1", 200, { ...run, items_analysed: "none" }))
    assert.strictEqual(problems.length, 1)
    assert.include(problems[0], "items_analysed")
    const missing = conformance.problemsOf(reply("POST", "/api/v1/runs", 202, { ...run, id: undefined }))
    assert.include(missing[0], "id")
  })

  it("responses are open: a field v1 may add later passes; request bodies are strict", () => {
    assert.deepStrictEqual(
      conformance.problemsOf(reply("GET", "/api/v1/runs/run_1", 200, { ...run, added_in_v1_1: true })),
      []
    )
    assert.deepStrictEqual(
      conformance.problemsOf(reply("GET", "/api/v1/runs", 429, { ...limited, hint: "x" }, { "retry-after": "43" })),
      []
    )
    assert.deepStrictEqual(conformance.requestProblemsOf("POST", "/api/v1/runs", { subset_tags: ["kitchen"] }), [])
    assert.deepStrictEqual(conformance.requestProblemsOf("POST", "/api/v1/runs", null), [])
    assert.strictEqual(conformance.requestProblemsOf("POST", "/api/v1/runs", { subset_tag: ["kitchen"] }).length, 1)
  })

  it("refuses an answer without its required header, or of a status the operation does not list", () => {
    const noRetryAfter = conformance.problemsOf(reply("GET", "/api/v1/runs", 429, limited))
    assert.deepStrictEqual(noRetryAfter, ["GET /api/v1/runs -> 429: header retry-after is missing"])
    // Retry-After is an integer: whole seconds, not an HTTP date nor a fraction.
    for (const wrong of ["1.5", "Wed, 21 Oct 2026 07:28:00 GMT"]) {
      const problems = conformance.problemsOf(reply("GET", "/api/v1/runs", 429, limited, { "retry-after": wrong }))
      assert.deepStrictEqual(problems, ["GET /api/v1/runs -> 429: header retry-after: data must be integer"], wrong)
    }
    const noRequestId = conformance.problemsOf({
      ...reply("GET", "/api/v1/runs/run_1", 200, run),
      headers: { "content-type": "application/json" }
    })
    assert.deepStrictEqual(noRequestId, ["GET /api/v1/runs/run_1 -> 200: header x-request-id is missing"])
    const unlisted = conformance.problemsOf(reply("GET", "/api/v1/runs", 409, { ...limited, code: "conflict" }))
    assert.include(unlisted[0], "status 409 is not among the operation's responses")
  })

  it("holds the answers of paths no operation serves to the envelope", () => {
    const unknown = { code: "not_found", message: "No such route.", request_id: "req-1" }
    assert.deepStrictEqual(conformance.problemsOf(reply("GET", "/api/v1/nothing", 404, unknown)), [])
    assert.deepStrictEqual(
      conformance.problemsOf(reply("DELETE", "/api/v1/runs", 405, { ...unknown, code: "method_not_allowed" })),
      []
    )
    assert.strictEqual(
      conformance.problemsOf(reply("GET", "/api/v1/nothing", 404, { message: "No such route." })).length,
      1
    )
  })

  it("refuses an error code its status does not have", () => {
    const problems = conformance.problemsOf(reply("GET", "/api/v1/runs/run_1", 404, { ...limited, code: "gone" }))
    assert.strictEqual(problems.length, 1)
  })

  it("every example of the document passes its own schema", () => {
    const document = { ...OpenApi.fromApi(Api) }
    const schemas = Object.entries(document.components.schemas)
    assert.isAbove(schemas.length, 30)
    for (const [name, schema] of schemas) {
      assert.isArray(schema.examples, name)
      const single = conformanceOf({
        paths: {
          "/example": {
            get: {
              responses: {
                "200": { content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } } }
              }
            }
          }
        },
        components: document.components
      })
      for (const example of Array.isArray(schema.examples) ? schema.examples : []) {
        assert.deepStrictEqual(
          single.problemsOf({
            method: "GET",
            path: "/example",
            status: 200,
            headers: { "content-type": "application/json" },
            text: JSON.stringify(example)
          }),
          [],
          name
        )
      }
    }
  })
})
