import { assert, layer } from "@effect/vitest"
import { UserId } from "@margin/core/kernel/Ids"
import { SessionSigner } from "@margin/edge/auth"
import {
  aWorkspaceWithOwner,
  importItem,
  member,
  recommendationFor,
  seedAlert,
  session
} from "@margin/edge/testing/World"
import * as PgTestAdapters from "@margin/postgres/testing/PgTestAdapters"
import * as PgServerPorts from "@margin/runtime/testing/PgServerPorts"
import { baseUrl, layerOn, layer as testServer } from "@margin/runtime/testing/TestServer"
import { Effect } from "effect"
import * as fc from "fast-check"

/**
 * Random and malformed requests to every route: methods, paths, ids, query strings, headers and
 * bodies, with the shapes an outside probe found (issue 29): out-of-range numbers in cursors and
 * ids, NUL, lone surrogates and bytes that are not UTF-8 in every string position, session JWTs
 * whose `sub` is such a string. Whatever arrives, the service never answers 5xx, and every error
 * carries the envelope: on the memory adapters, and on PostgreSQL, which refuses what the memory
 * adapters would store (a NUL, an instant out of its range). The same for MCP tool calls.
 */

interface Probe {
  readonly method: string
  readonly path: string
  /** Keys and values already percent-encoded: some are escapes of bytes that are not UTF-8. */
  readonly query: ReadonlyArray<readonly [string, string]>
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | Uint8Array | undefined
}

/** Strings that broke a database or a decoder somewhere: NUL, lone surrogates, out-of-range numbers. */
const nastyConstants = [
  "\u0000",
  "a\u0000b",
  "\ud800",
  "a\udc00b",
  "\ud83d",
  "2dnw4tonmyo.run_x",
  "zzzzzzzzzzzz.rec_1",
  "2gosa7pa2gw.itm_a",
  "99999999999999999999999",
  "-9223372036854775809",
  "1e400",
  "-1",
  "NaN",
  "Infinity",
  "0x10",
  "1e1",
  " 10",
  "10.0"
]

/**
 * Cursors of the service's shape, a base-36 instant and an id, the instant often just past the last
 * a date holds (8.64e15 ms) and below 2^53: the window where a cursor parses but the database
 * cannot hold its instant.
 */
const cursorShaped = fc
  .tuple(
    fc.oneof(fc.maxSafeNat(), fc.integer({ min: 8_640_000_000_000_001, max: Number.MAX_SAFE_INTEGER })),
    fc.constantFrom("run", "rec", "alt", "itm"),
    fc.stringMatching(/^[0-9a-z]{1,8}$/)
  )
  .map(([instant, kind, id]) => `${instant.toString(36)}.${kind}_${id}`)

const nastyString = fc.oneof(
  fc.constantFrom(...nastyConstants),
  fc.string({ maxLength: 20 }),
  fc
    .tuple(fc.string({ maxLength: 10 }), fc.constantFrom("\u0000", "\ud800", "\udfff"))
    .map(([text, bad]) => `${text}${bad}${text}`),
  fc.stringMatching(/^[0-9a-z]{1,12}\.(run|rec|alt|itm)_[0-9a-z]{1,8}$/),
  cursorShaped,
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String)
)

/** Percent escapes of bytes that are not UTF-8 (a lone 0xff, a truncated sequence, an encoded surrogate, past U+10FFFF). */
const invalidUtf8Escapes = ["%FF", "%C3%28", "%E2%82", "%ED%A0%80", "%F4%90%80%80", "%C0%AF", "%00"]

/** A string as a query value or path segment: escaped when it can be, else an escape of bad bytes. */
const escaped = (text: string): string => (text.isWellFormed() ? encodeURIComponent(text) : "%ED%A0%80")

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
  "\u00e9",
  ...invalidUtf8Escapes,
  "run_99999999999999999999999",
  "rec_%FF",
  "alt_%ED%A0%80",
  "itm_1e400"
]

const segment = fc.oneof(
  fc.constantFrom(...nastySegments),
  fc.string({ maxLength: 40 }).map(escaped),
  nastyString.map(escaped),
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
  fc.string({ maxLength: 30 }).map(escaped),
  fc.integer().map(String),
  fc.double().map((value) => escaped(String(value))),
  fc.constantFrom("new", "pending_approval", "open", "snoozed", "queued", "price_drift", "0", "201", "1e3", ""),
  nastyString.map(escaped),
  fc.constantFrom(...invalidUtf8Escapes),
  fc
    .tuple(fc.stringMatching(/^[a-z0-9_]{0,8}$/), fc.constantFrom(...invalidUtf8Escapes))
    .map(([text, bad]) => `${text}${bad}`)
)

const query = fc.array(
  fc.tuple(
    fc.oneof(
      fc.constantFrom("limit", "cursor", "status", "run_id", "tag", "kind"),
      fc.string({ maxLength: 10 }).map(escaped)
    ),
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

/** A JSON text whose string values are nasty strings (escaped by JSON.stringify: NUL and surrogates as `\\u` escapes). */
const nastyJsonBodies = fc
  .record(
    {
      reason: nastyString,
      snooze_until: nastyString,
      subset_tags: fc.array(nastyString, { maxLength: 3 }),
      [String("\ud800")]: nastyString
    },
    { requiredKeys: [] }
  )
  .map((value) => JSON.stringify(value))

/** A JSON text with bytes that are not UTF-8 inside one of its strings. */
const invalidUtf8Bodies = fc
  .tuple(
    fc.constantFrom("reason", "snooze_until", "subset_tags"),
    fc.constantFrom([0xff], [0xc3, 0x28], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf])
  )
  .map(([field, bytes]) => {
    const [before, after] = field === "subset_tags" ? [`{"${field}":["a`, `b"]}`] : [`{"${field}":"a`, `b"}`]
    return Uint8Array.from([...Buffer.from(before), ...bytes, ...Buffer.from(after)])
  })

const body = fc.option(
  fc.oneof(
    { weight: 3, arbitrary: jsonBodies },
    { weight: 2, arbitrary: nastyJsonBodies },
    { weight: 2, arbitrary: invalidUtf8Bodies },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
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
            "application/json; charset=utf-16",
            "application/json; charset=iso-8859-1",
            'application/json; charset="UTF-8"',
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
  const search = request.query.map(([key, value]) => `${key}=${value}`).join("&")
  const url = `${base}${request.path}${search === "" ? "" : `?${search}`}`
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

/** Session JWTs, validly signed, whose `sub` no user id can be: NUL, a control character, a lone surrogate. */
const nastySubjects = ["usr_\u0000", "\u0000", "usr_\u001f", "usr_\ud800", "\udfff", "x".repeat(129)]

/** The seeded world every fuzz test probes: two workspaces, an approver with a session, a pending recommendation and an alert. */
const world = Effect.gen(function* () {
  const { workspace, owner } = yield* aWorkspaceWithOwner()
  const other = yield* aWorkspaceWithOwner()
  const approver = yield* member(workspace, "approver")
  const jwt = yield* session(approver.user)
  const nastyJwts = yield* Effect.forEach(nastySubjects, (sub) =>
    SessionSigner.use((signer) => signer.sign(UserId.make(sub), 600))
  )
  const recommendation = yield* recommendationFor(workspace, yield* importItem(workspace), {
    status: "pending_approval"
  })
  const alert = yield* seedAlert(workspace)
  return { workspace, owner, other, approver, jwt, nastyJwts, recommendation, alert }
})

const fuzzRest = (numRuns: number) =>
  Effect.gen(function* () {
    const base = yield* baseUrl
    const { workspace, owner, other, approver, jwt, nastyJwts, recommendation, alert } = yield* world
    const credentials = [owner.token, approver.token, jwt, other.owner.token, ...nastyJwts]
    const arbitrary = probe(credentials, [workspace.id, other.workspace.id])
    const known = fc.tuple(arbitrary, fc.constantFrom(recommendation.id, alert.id)).map(([request, id]) => ({
      ...request,
      path: request.path.replace(/\/(rec|alt)_[^/]*/, `/${id}`)
    }))
    yield* Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(fc.oneof(arbitrary, known), (request) => holds(base, request)),
        { numRuns, seed: 20_261_122 }
      )
    )
  })

/** Every tool and the arguments it takes: a probe gives one or two of them nasty values, so that the rest is valid. */
const toolArguments: Readonly<Record<string, ReadonlyArray<string>>> = {
  list_runs: ["limit", "cursor", "status"],
  get_run: ["run_id"],
  trigger_run: ["subset_tags"],
  list_recommendations: ["limit", "cursor", "status", "run_id"],
  get_recommendation: ["recommendation_id"],
  accept_recommendation: ["recommendation_id"],
  dismiss_recommendation: ["recommendation_id"],
  approve_recommendation: ["recommendation_id"],
  reject_recommendation: ["recommendation_id", "reason"],
  list_alerts: ["limit", "cursor", "status", "kind"],
  get_alert: ["alert_id"],
  snooze_alert: ["alert_id", "snooze_until"],
  resolve_alert: ["alert_id"],
  dismiss_alert: ["alert_id"],
  list_catalog_items: ["limit", "cursor", "tag"],
  export_report: ["limit", "cursor"],
  get_workspace_status: ["unknown"]
}

const argumentValue = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 1, arbitrary: fc.array(nastyString, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(2 ** 53, -(2 ** 63), 1e308, 0, 201)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) }
)

interface ToolProbe {
  readonly tool: string
  readonly args: Readonly<Record<string, unknown>>
  /** Bytes that are not UTF-8 put into the first string of the body, when set. */
  readonly badBytes: ReadonlyArray<number> | null
}

/** The value of one argument: a nasty value of any type, an id of the world, or for a cursor one of the cursor's shape. */
const valueFor = (name: string, ids: ReadonlyArray<string>) =>
  fc.oneof(
    { weight: 4, arbitrary: argumentValue },
    { weight: 1, arbitrary: fc.constantFrom(...ids) },
    { weight: name === "cursor" ? 4 : 0, arbitrary: cursorShaped }
  )

const toolProbe = (ids: ReadonlyArray<string>): fc.Arbitrary<ToolProbe> =>
  fc.constantFrom(...Object.keys(toolArguments)).chain((tool) =>
    fc
      .subarray([...(toolArguments[tool] ?? [])], {
        minLength: 1,
        maxLength: Math.min(2, toolArguments[tool]?.length ?? 1)
      })
      .chain((names) =>
        fc.record({
          tool: fc.constant(tool),
          args: fc.record(Object.fromEntries(names.map((name) => [name, valueFor(name, ids)]))),
          badBytes: fc.option(fc.constantFrom([0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]), {
            nil: null,
            freq: 4
          })
        })
      )
  )

/** The body of a tools/call: JSON, with bad bytes spliced into the tool's name string when asked. */
const toolCallBody = (probe: ToolProbe, id: number): string | Uint8Array => {
  const text = JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: probe.tool, arguments: probe.args }
  })
  if (probe.badBytes === null) return text
  // Into the string of the first argument value when there is one, else into the tool's name.
  const at = text.indexOf('"arguments":{"') >= 0 ? text.indexOf('":"', text.indexOf('"arguments":{"')) + 3 : -1
  const cut = at > 2 ? at : text.indexOf(probe.tool) + 1
  return Uint8Array.from([...Buffer.from(text.slice(0, cut)), ...probe.badBytes, ...Buffer.from(text.slice(cut))])
}

const mcpHeaders = (token: string, sessionId: string | undefined) => ({
  authorization: `Bearer ${token}`,
  accept: "application/json, text/event-stream",
  "content-type": "application/json",
  ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId })
})

/**
 * What an MCP answer must never be: an HTTP 5xx, a JSON-RPC internal error, or a tool result saying
 * the service failed. A body with bytes that are not UTF-8 must be refused in front of the MCP server
 * (400 bad_request), never read as U+FFFD. `reached` counts the UTF-8 probes and the answers that
 * carry a tool's result (a success or an error result), so that the test can tell probes reached the
 * tools rather than a refusal in front.
 */
const mcpHolds = async (
  base: string,
  token: string,
  sessionId: string,
  probe: ToolProbe,
  id: number,
  reached: { sent: number; count: number }
) => {
  const response = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: mcpHeaders(token, sessionId),
    body: toolCallBody(probe, id)
  })
  const text = await response.text()
  if (probe.badBytes !== null) return response.status === 400 && text.includes('"code":"bad_request"')
  reached.sent += 1
  if (text.includes('"result"')) reached.count += 1
  if (response.status >= 500) return false
  return !/"code":\s*-32603|service_unavailable|internal_error/.test(text)
}

const fuzzMcp = (numRuns: number) =>
  Effect.gen(function* () {
    const base = yield* baseUrl
    const { owner, recommendation, alert } = yield* world
    const initialized = yield* Effect.promise(() =>
      fetch(`${base}/mcp`, {
        method: "POST",
        headers: mcpHeaders(owner.token, undefined),
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } }
        })
      })
    )
    const sessionId = initialized.headers.get("mcp-session-id") ?? ""
    assert.strictEqual(initialized.status, 200)
    yield* Effect.promise(() =>
      fetch(`${base}/mcp`, {
        method: "POST",
        headers: mcpHeaders(owner.token, sessionId),
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })
      })
    )
    let id = 1
    const reached = { sent: 0, count: 0 }
    yield* Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(
          toolProbe([recommendation.id, alert.id, recommendation.runId, recommendation.itemId]),
          (probe) => mcpHolds(base, owner.token, sessionId, probe, id++, reached)
        ),
        { numRuns, seed: 20_261_127 }
      )
    )
    assert.isAtLeast(reached.sent, numRuns / 10, "probes in UTF-8 are sent too")
    assert.isAtLeast(reached.count, reached.sent / 4, "probes reach the tools, not only a refusal in front of them")
  })

layer(testServer(), { excludeTestServices: true, timeout: "180 seconds" })("fuzz (memory adapters)", (it) => {
  it.effect(
    "random and malformed requests never get a 5xx, and every error has the envelope",
    () => fuzzRest(600),
    180_000
  )
  it.effect("random and malformed MCP tool calls never get a 5xx or an internal error", () => fuzzMcp(300), 180_000)
})

/** The database adapters: what the server runs. */
const onPostgres = layerOn(PgServerPorts.layer)

layer(onPostgres, { excludeTestServices: true, timeout: "180 seconds" })(
  `fuzz (PostgreSQL, ${PgTestAdapters.backend})`,
  (it) => {
    it.effect(
      "random and malformed requests never get a 5xx, and every error has the envelope",
      () => fuzzRest(400),
      180_000
    )
    it.effect("random and malformed MCP tool calls never get a 5xx or an internal error", () => fuzzMcp(300), 180_000)
  }
)
