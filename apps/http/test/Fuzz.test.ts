import { layer } from "@effect/vitest"
import { aWorkspaceWithOwner, member, seedAlert, seedRecommendation, session } from "@margin/edge/testing/World"
import { baseUrl, layer as testServer } from "@margin/runtime/testing/TestServer"
import { Effect } from "effect"
import * as fc from "fast-check"

/**
 * Random and malformed requests to every route: methods, paths, ids, query strings, headers and
 * bodies. Whatever arrives, the service never answers 5xx, and every error carries the envelope.
 */

interface Probe {
  readonly method: string
  readonly path: string
  readonly query: ReadonlyArray<readonly [string, string]>
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | undefined
}

const templates = [
  "/api/v1/runs",
  "/api/v1/runs/{id}",
  "/api/v1/recommendations",
  "/api/v1/recommendations/{id}",
  "/api/v1/recommendations/{id}/accept",
  "/api/v1/recommendations/{id}/dismiss",
  "/api/v1/recommendations/{id}/approve",
  "/api/v1/recommendations/{id}/reject",
  "/api/v1/alerts",
  "/api/v1/alerts/{id}",
  "/api/v1/alerts/{id}/snooze",
  "/api/v1/alerts/{id}/resolve",
  "/api/v1/alerts/{id}/dismiss",
  "/api/v1/catalog/items",
  "/api/v1/reports/export",
  "/api/v1/workspace/status",
  "/api/v1/openapi.json",
  "/healthz",
  "/readyz"
]

const nastySegments = [
  "%",
  "%ZZ",
  "%00",
  "%2F",
  "%2e%2e",
  "..",
  "a b",
  "%F0%9F%92%A9",
  "rec_000001;x",
  "' OR 1=1 --",
  "\u00e9"
]

const segment = fc.oneof(
  fc.constantFrom(...nastySegments),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.stringMatching(/^(rec|alt|run|itm)_[0-9a-zA-Z_-]{0,20}$/)
)

const path = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.tuple(fc.constantFrom(...templates), segment).map(([template, id]) => template.replace("{id}", id))
  },
  { weight: 1, arbitrary: fc.array(segment, { maxLength: 6 }).map((segments) => `/${segments.join("/")}`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...templates), segment)
      .map(([template, extra]) => `${template.replace("{id}", "x")}/${extra}`)
  }
)

const queryValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom("new", "pending_approval", "open", "snoozed", "queued", "price_drift", "0", "201", "1e3", "")
)

const query = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom("limit", "cursor", "status", "run_id", "tag", "kind"), fc.string({ maxLength: 10 })),
    queryValue
  ),
  { maxLength: 5 }
)

const jsonBodies = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc
    .record(
      {
        reason: fc.oneof(fc.string(), fc.jsonValue()),
        snooze_until: fc.oneof(
          fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
          fc.string(),
          fc.jsonValue()
        ),
        subset_tags: fc.oneof(fc.array(fc.string({ maxLength: 70 }), { maxLength: 5 }), fc.jsonValue())
      },
      { requiredKeys: [] }
    )
    .map((value) => JSON.stringify(value))
)

const body = fc.option(
  fc.oneof(
    { weight: 3, arbitrary: jsonBodies },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 200 }) },
    { weight: 1, arbitrary: fc.constantFrom("{", "[", '{"reason":', "null", "", "\u0000", "{}".repeat(1000)) }
  ),
  { nil: undefined }
)

const printable = fc.string({ maxLength: 60 })

const probe = (credentials: ReadonlyArray<string>, workspaceIds: ReadonlyArray<string>) =>
  fc.record({
    method: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"),
    path,
    query,
    headers: fc.record(
      {
        authorization: fc.oneof(
          fc.constantFrom(...credentials.map((credential) => `Bearer ${credential}`)),
          printable,
          printable.map((text) => `Bearer ${text}`),
          printable.map((text) => `Bearer pck_${text}`)
        ),
        "content-type": fc.oneof(
          fc.constantFrom(
            "application/json",
            "application/json; charset=utf-8",
            "text/plain",
            "application/xml",
            "multipart/form-data"
          ),
          printable
        ),
        "x-workspace-id": fc.oneof(fc.constantFrom(...workspaceIds), printable),
        accept: fc.oneof(
          fc.constantFrom("application/json", "text/csv", "*/*", "text/csv;q=0.1, application/json"),
          printable
        )
      },
      { requiredKeys: [] }
    ),
    body
  })

const send = async (base: string, request: Probe): Promise<Response> => {
  // Concatenated, not resolved: a path like `//x` must reach the server as a path.
  const url = new URL(`${base}${request.path}`)
  for (const [key, value] of request.query) url.searchParams.append(key, value)
  const carriesBody = request.body !== undefined && request.method !== "GET" && request.method !== "HEAD"
  return fetch(url, {
    method: request.method,
    headers: request.headers,
    ...(carriesBody ? { body: request.body } : {})
  })
}

/** The property: no 5xx; every error is JSON `{ code, message }` (HEAD answers carry no body). */
const holds = async (base: string, request: Probe): Promise<boolean> => {
  const response = await send(base, request)
  const text = await response.text()
  if (response.status >= 500) return false
  if (response.status < 400 || request.method === "HEAD") return true
  if (!(response.headers.get("content-type") ?? "").startsWith("application/json")) return false
  const envelope: unknown = JSON.parse(text)
  return (
    typeof envelope === "object" &&
    envelope !== null &&
    typeof Object(envelope).code === "string" &&
    typeof Object(envelope).message === "string"
  )
}

layer(testServer(), { excludeTestServices: true, timeout: "120 seconds" })("fuzz", (it) => {
  it.effect(
    "random and malformed requests never get a 5xx, and every error has the envelope",
    () =>
      Effect.gen(function* () {
        const base = yield* baseUrl
        const { workspace, owner } = yield* aWorkspaceWithOwner()
        const other = yield* aWorkspaceWithOwner()
        const approver = yield* member(workspace, "approver")
        const jwt = yield* session(approver.user)
        const recommendation = yield* seedRecommendation(workspace, { status: "pending_approval" })
        const alert = yield* seedAlert(workspace)
        const credentials = [owner.token, approver.token, jwt, other.owner.token]
        const arbitrary = probe(credentials, [workspace.id, other.workspace.id])
        const known = fc.tuple(arbitrary, fc.constantFrom(recommendation.id, alert.id)).map(([request, id]) => ({
          ...request,
          path: request.path.replace(/\/(rec|alt)_[^/]*/, `/${id}`)
        }))
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(fc.oneof(arbitrary, known), (request) => holds(base, request)),
            { numRuns: 600, seed: 20_261_122 }
          )
        )
      }),
    120_000
  )
})
