import { assert, describe, layer } from "@effect/vitest"
import { UserRepository } from "@margin/core/access/UserRepository"
import { RunRepository } from "@margin/core/runs/RunRepository"
import { seedUser } from "@margin/core/testing/Seed"
import {
  addMember,
  aWorkspaceWithOwner,
  issueToken,
  member,
  seedAlert,
  seedRecommendation,
  seedRun,
  session
} from "@margin/edge/testing/World"
import {
  baseUrl,
  bodyOf,
  call,
  expectError,
  postChunked,
  type Reply,
  layer as testServer
} from "@margin/runtime/testing/TestServer"
import { Clock, Effect, Layer } from "effect"
import { operations, requestOptions } from "./Operations.ts"
import { unavailableCatalog } from "./UnavailableCatalog.ts"

/** docs/contract.md, "Errors and the order of checks": every error row, the envelope of every error, and the order. */

const issuePaths = (body: Readonly<Record<string, unknown>>): ReadonlyArray<unknown> =>
  Array.isArray(body.issues) ? body.issues.map((issue) => Object(issue).path) : []

const expectNoStack = (reply: Reply) => {
  assert.notMatch(reply.text, /\bat \S+ \(|\.ts:\d+|Error:|stack/i, "no stack trace or internals in an error body")
}

layer(testServer(), { excludeTestServices: true })("errors", (it) => {
  it.effect("400 bad_request when the body is not JSON", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const pending = yield* seedRecommendation(workspace, { status: "pending_approval" })
      const alert = yield* seedAlert(workspace)
      const targets = [
        "/api/v1/runs",
        `/api/v1/recommendations/${pending.id}/reject`,
        `/api/v1/alerts/${alert.id}/snooze`
      ]
      for (const path of targets) {
        for (const body of ["{", "not json", '{"reason": }', "{'reason': 'x'}", '{"reason":"x"} trailing']) {
          const answer = yield* call("POST", path, { token: owner.token, body })
          expectError(answer, 400, "bad_request")
          expectNoStack(answer)
        }
      }
    })
  )

  it.effect("400 for a body that is not UTF-8 JSON (invalid bytes, a lone surrogate); 415 for another charset", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const pending = yield* seedRecommendation(workspace, { status: "pending_approval" })
      const alert = yield* seedAlert(workspace)
      const base = yield* baseUrl
      const post = (path: string, body: Uint8Array | string, contentType = "application/json") =>
        Effect.promise(async () => {
          const response = await fetch(`${base}${path}`, {
            method: "POST",
            headers: { authorization: `Bearer ${owner.token}`, "content-type": contentType },
            body
          })
          const text = await response.text()
          const reply: Reply = {
            status: response.status,
            headers: Object.fromEntries(response.headers.entries()),
            text,
            json: text.startsWith("{") ? JSON.parse(text) : undefined
          }
          return reply
        })
      const bodies: ReadonlyArray<readonly [string, (text: string) => Uint8Array | string]> = [
        // A JSON text with a byte that is no UTF-8 (0xff), and one with a truncated sequence.
        [
          "an invalid byte",
          (field) => Buffer.concat([Buffer.from(`{"${field}":"a`), Buffer.from([0xff]), Buffer.from('"}')])
        ],
        [
          "a truncated sequence",
          (field) => Buffer.concat([Buffer.from(`{"${field}":"`), Buffer.from([0xe2, 0x82]), Buffer.from('"}')])
        ],
        // Valid UTF-8 JSON whose escapes decode to a lone surrogate, which no UTF-8 text can hold.
        ["a lone high surrogate", (field) => `{"${field}":"a\\ud800b"}`],
        ["a lone low surrogate", (field) => `{"${field}":["\\udc00"]}`]
      ]
      const targets = [
        ["/api/v1/runs", "subset_tags"],
        [`/api/v1/recommendations/${pending.id}/reject`, "reason"],
        [`/api/v1/alerts/${alert.id}/snooze`, "snooze_until"]
      ] as const
      for (const [path, field] of targets) {
        for (const [what, body] of bodies) {
          const answer = yield* post(path, body(field))
          assert.strictEqual(answer.status, 400, `${what} to ${path}: ${answer.text}`)
          expectError(answer, 400, "bad_request")
        }
        for (const charset of ["utf-16", "UTF-16LE", "iso-8859-1", '"latin1"']) {
          const answer = yield* post(path, `{"${field}":"x"}`, `application/json; charset=${charset}`)
          assert.strictEqual(answer.status, 415, `charset ${charset} to ${path}: ${answer.text}`)
          expectError(answer, 415, "unsupported_media_type")
        }
      }
      // UTF-8 under any spelling, and escapes that pair into one character, are fine.
      for (const charset of ["utf-8", "UTF-8", '"utf-8"', "utf8"]) {
        const answer = yield* post(
          `/api/v1/recommendations/${pending.id}/reject`,
          '{"reason":"caf\u00e9 \ud83d\ude00 é"}',
          `application/json; charset=${charset}`
        )
        assert.notStrictEqual(answer.status, 415, `charset ${charset}: ${answer.text}`)
        assert.notStrictEqual(answer.status, 400, `charset ${charset}: ${answer.text}`)
      }
    })
  )

  it.effect("402 plan_limit when the plan's runs are used up; 402 email_not_confirmed for an unconfirmed user", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner({ plan: "free" })
      const now = yield* Clock.currentTimeMillis
      for (let n = 0; n < 10; n++) yield* seedRun(workspace, { createdAt: now })
      expectError(yield* call("POST", "/api/v1/runs", { token: owner.token }), 402, "plan_limit")

      const other = yield* aWorkspaceWithOwner()
      const unconfirmed = yield* member(other.workspace, "analyst", { emailConfirmed: false })
      expectError(yield* call("POST", "/api/v1/runs", { token: unconfirmed.token }), 402, "email_not_confirmed")
    })
  )

  it.effect("404 not_found for ids that do not exist, on every id route", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      for (const operation of operations.filter((candidate) => /_missing/.test(candidate.path))) {
        const options = requestOptions(operation, { token: owner.token })
        expectError(yield* call(operation.method, operation.path, options), 404, "not_found")
      }
    })
  )

  it.effect("409 conflict when the state does not allow the operation", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const dismissed = yield* seedRecommendation(workspace, { status: "dismissed" })
      expectError(
        yield* call("POST", `/api/v1/recommendations/${dismissed.id}/accept`, { token: owner.token }),
        409,
        "conflict"
      )
      const resolved = yield* seedAlert(workspace, { status: "resolved" })
      expectError(
        yield* call("POST", `/api/v1/alerts/${resolved.id}/snooze`, {
          token: owner.token,
          body: { snooze_until: "2099-01-01T00:00:00Z", reason: "x" }
        }),
        409,
        "conflict"
      )
    })
  )

  it.effect("422 validation_error lists every failing field of a body", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const alert = yield* seedAlert(workspace)
      const snooze = `/api/v1/alerts/${alert.id}/snooze`
      const both = expectError(
        yield* call("POST", snooze, { token: owner.token, body: { snooze_until: "tomorrow", reason: 5 } }),
        422,
        "validation_error"
      )
      assert.deepStrictEqual(issuePaths(both), ["snooze_until", "reason"])
      const missing = expectError(
        yield* call("POST", snooze, { token: owner.token, body: {} }),
        422,
        "validation_error"
      )
      assert.deepStrictEqual(issuePaths(missing), ["snooze_until", "reason"])
      for (const until of ["2099-01-01T00:00:00+02:00", "2099-02-30T00:00:00Z", "2099-01-01", "1700000000"]) {
        const body = expectError(
          yield* call("POST", snooze, { token: owner.token, body: { snooze_until: until, reason: "x" } }),
          422,
          "validation_error"
        )
        assert.deepStrictEqual(issuePaths(body), ["snooze_until"], until)
      }
      const tags = expectError(
        yield* call("POST", "/api/v1/runs", { token: owner.token, body: { subset_tags: ["ok", 7, ""] } }),
        422,
        "validation_error"
      )
      assert.deepStrictEqual(issuePaths(tags), ["subset_tags.1", "subset_tags.2"])
      const nulTag = expectError(
        yield* call("POST", "/api/v1/runs", { token: owner.token, body: { subset_tags: ["a\u0000b"] } }),
        422,
        "validation_error"
      )
      assert.deepStrictEqual(issuePaths(nulTag), ["subset_tags.0"])
      const nulReason = expectError(
        yield* call("POST", snooze, {
          token: owner.token,
          body: { snooze_until: "2099-01-01T00:00:00Z", reason: "a\u0000b" }
        }),
        422,
        "validation_error"
      )
      assert.deepStrictEqual(issuePaths(nulReason), ["reason"])
      const pending = yield* seedRecommendation(workspace, { status: "pending_approval" })
      for (const body of [[], "null", '"reason"', { reason: "x".repeat(1001) }]) {
        expectError(
          yield* call("POST", `/api/v1/recommendations/${pending.id}/reject`, { token: owner.token, body }),
          422,
          "validation_error"
        )
      }
    })
  )

  it.effect("422 validation_error for query parameters, naming each", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const body = expectError(
        yield* call("GET", "/api/v1/runs?limit=500&cursor=garbage&status=sleeping", { token: owner.token }),
        422,
        "validation_error"
      )
      assert.deepStrictEqual(issuePaths(body), ["limit", "cursor", "status"])
      for (const query of [
        "limit=0",
        "limit=abc",
        "limit=1.5",
        "limit=-1",
        "limit=1e3",
        "limit=0x10",
        "limit=1e1",
        "limit=%2B5",
        "limit=%2010",
        "limit=10.0",
        "limit=0b11",
        "limit=Infinity"
      ]) {
        expectError(
          yield* call("GET", `/api/v1/recommendations?${query}`, { token: owner.token }),
          422,
          "validation_error"
        )
      }
      expectError(
        yield* call("GET", "/api/v1/recommendations?status=bogus", { token: owner.token }),
        422,
        "validation_error"
      )
      expectError(yield* call("GET", "/api/v1/alerts?kind=bogus", { token: owner.token }), 422, "validation_error")
      // One issue per field, however many of its checks fail.
      const word = expectError(
        yield* call("GET", "/api/v1/runs?limit=abc", { token: owner.token }),
        422,
        "validation_error"
      )
      assert.deepStrictEqual(issuePaths(word), ["limit"])
      // NUL cannot reach a query: 422 naming the parameter.
      const nulRun = expectError(
        yield* call("GET", "/api/v1/recommendations?run_id=run_%00", { token: owner.token }),
        422,
        "validation_error"
      )
      assert.deepStrictEqual(issuePaths(nulRun), ["run_id"])
      const nulTag = expectError(
        yield* call("GET", "/api/v1/catalog/items?tag=a%00b", { token: owner.token }),
        422,
        "validation_error"
      )
      assert.deepStrictEqual(issuePaths(nulTag), ["tag"])
      const ignored = yield* call("GET", "/api/v1/runs?unknown=1", { token: owner.token })
      assert.strictEqual(ignored.status, 200, "unknown query parameters are ignored")
    })
  )

  it.effect("every error has the envelope: unknown route 404, wrong method 405, 413 (announced or streamed), 415", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      expectError(yield* call("GET", "/api/v1/nope", { token: owner.token }), 404, "not_found")
      expectError(yield* call("GET", "/nope"), 404, "not_found")
      expectError(yield* call("GET", "/api/v2/runs", { token: owner.token }), 404, "not_found")

      const wrong = yield* call("DELETE", "/api/v1/runs", { token: owner.token })
      expectError(wrong, 405, "method_not_allowed")
      assert.strictEqual(wrong.headers.allow, "GET, POST, HEAD")
      const getOnPost = yield* call("GET", "/api/v1/recommendations/rec_1/approve", { token: owner.token })
      expectError(getOnPost, 405, "method_not_allowed")
      assert.strictEqual(getOnPost.headers.allow, "POST")

      const pending = yield* seedRecommendation(workspace, { status: "pending_approval" })
      const reject = `/api/v1/recommendations/${pending.id}/reject`
      const announced = yield* call("POST", reject, { token: owner.token, body: { reason: "x".repeat(1_100_000) } })
      expectError(announced, 413, "payload_too_large")
      assert.strictEqual(announced.headers.connection, "close")
      const streamed = yield* postChunked(reject, owner.token, JSON.stringify({ reason: "x".repeat(1_100_000) }))
      expectError(streamed, 413, "payload_too_large")
      // Its unread rest would be taken for the next request: the connection is closed, as for an announced one.
      assert.strictEqual(streamed.headers.connection, "close")
      expectError(
        yield* call("POST", reject, {
          token: owner.token,
          body: "reason=x",
          headers: { "content-type": "text/plain" }
        }),
        415,
        "unsupported_media_type"
      )
      expectError(
        yield* call("POST", reject, {
          token: owner.token,
          body: "reason=x",
          headers: { "content-type": "application/x-www-form-urlencoded" }
        }),
        415,
        "unsupported_media_type"
      )
      const charset = yield* call("POST", reject, {
        token: owner.token,
        body: { reason: "fine" },
        headers: { "content-type": "application/json; charset=utf-8" }
      })
      assert.strictEqual(charset.status, 200)
    })
  )

  it.effect("a path the router refuses with the request's own method allowed is 404, not 405", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      // An id over the router's 100-character segment limit, malformed escapes, an escaped NUL.
      for (const id of ["r".repeat(101), "%ZZ", "rec_%FF", "rec_%00"]) {
        expectError(yield* call("GET", `/api/v1/recommendations/${id}`, { token: owner.token }), 404, "not_found")
        expectError(
          yield* call("POST", `/api/v1/recommendations/${id}/accept`, { token: owner.token }),
          404,
          "not_found"
        )
        assert.strictEqual((yield* call("HEAD", `/api/v1/alerts/${id}`, { token: owner.token })).status, 404)
      }
      const wrong = yield* call("DELETE", `/api/v1/recommendations/${"r".repeat(101)}`, { token: owner.token })
      expectError(wrong, 405, "method_not_allowed")
      assert.strictEqual(wrong.headers.allow, "GET, HEAD")
    })
  )

  it.effect("an empty id is 404 not_found, whatever the method, never the collection", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      for (const path of ["/api/v1/runs/", "/api/v1/recommendations/", "/api/v1/alerts/", "/api/v1//RUNS//"]) {
        for (const method of ["GET", "POST", "DELETE"] as const) {
          expectError(yield* call(method, path, { token: owner.token }), 404, "not_found")
        }
        // Before authentication, as for any route that does not exist.
        expectError(yield* call("GET", path), 404, "not_found")
      }
      // A collection without an item route keeps the router's trailing slash.
      assert.strictEqual((yield* call("GET", "/api/v1/catalog/items/", { token: owner.token })).status, 200)
    })
  )

  it.effect("405 matches paths as the router does: any case, repeated slashes, a trailing slash", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      for (const path of ["/api/v1/RUNS", "/api/v1//runs", "/api/v1/catalog/items/"]) {
        assert.strictEqual((yield* call("GET", path, { token: owner.token })).status, 200, path)
        const other = yield* call("DELETE", path, { token: owner.token })
        expectError(other, 405, "method_not_allowed")
        assert.strictEqual(other.headers.allow, path.includes("catalog") ? "GET, HEAD" : "GET, POST, HEAD")
      }
    })
  )

  it.effect("no X-RateLimit-* headers and no stack traces on any answer", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      for (const operation of operations) {
        const reply = yield* call(operation.method, operation.path, { token: owner.token })
        assert.deepStrictEqual(
          Object.keys(reply.headers).filter((name) => name.toLowerCase().startsWith("x-ratelimit")),
          []
        )
        if (reply.status >= 400) expectNoStack(reply)
      }
    })
  )
})

describe("the order of checks (docs/contract.md)", () => {
  layer(testServer(), { excludeTestServices: true })("order", (it) => {
    it.effect(
      "credential, then workspace, then scope, then token_unusable, then body, then validation, then role",
      () =>
        Effect.gen(function* () {
          const { workspace, owner } = yield* aWorkspaceWithOwner()
          const other = yield* aWorkspaceWithOwner()
          const pending = yield* seedRecommendation(workspace, { status: "pending_approval" })
          const reject = `/api/v1/recommendations/${pending.id}/reject`
          const malformed = "{"

          expectError(yield* call("POST", reject, { body: malformed }), 401, "unauthorized")
          expectError(
            yield* call("POST", reject, {
              token: owner.token,
              body: malformed,
              headers: { "x-workspace-id": other.workspace.id }
            }),
            403,
            "workspace_forbidden"
          )
          const unscoped = yield* issueToken(workspace, owner.user, { scopes: ["recommendations:read"] })
          expectError(
            yield* call("POST", reject, { token: unscoped.secret, body: malformed }),
            403,
            "insufficient_scope"
          )

          const departed = yield* member(workspace, "admin")
          const now = yield* Clock.currentTimeMillis
          yield* UserRepository.use((users) => users.markDeleted(departed.user.id, now))
          expectError(yield* call("POST", reject, { token: departed.token, body: malformed }), 403, "token_unusable")

          const analyst = yield* member(workspace, "analyst")
          expectError(yield* call("POST", reject, { token: analyst.token, body: malformed }), 400, "bad_request")
          expectError(
            yield* call("POST", reject, { token: analyst.token, body: { reason: 1 } }),
            422,
            "validation_error"
          )
          expectError(
            yield* call("POST", reject, { token: analyst.token, body: { reason: "x" } }),
            403,
            "forbidden_role"
          )
          expectError(
            yield* call("POST", "/api/v1/recommendations/rec_missing/reject", {
              token: analyst.token,
              body: { reason: "x" }
            }),
            403,
            "forbidden_role"
          )
        })
    )

    it.effect("role, then plan and integration, then resource, then state", () =>
      Effect.gen(function* () {
        const free = yield* aWorkspaceWithOwner({ plan: "free" })
        const viewer = yield* member(free.workspace, "viewer")
        const missing = "/api/v1/recommendations/rec_missing/approve"
        expectError(yield* call("POST", missing, { token: viewer.token }), 403, "forbidden_role")
        expectError(yield* call("POST", missing, { token: free.owner.token }), 422, "tier_ineligible")
        const unconnected = yield* aWorkspaceWithOwner({ store: false })
        expectError(yield* call("POST", missing, { token: unconnected.owner.token }), 422, "no_commerce_integration")
        const { workspace, owner } = yield* aWorkspaceWithOwner()
        expectError(yield* call("POST", missing, { token: owner.token }), 404, "not_found")
        const fresh = yield* seedRecommendation(workspace)
        expectError(
          yield* call("POST", `/api/v1/recommendations/${fresh.id}/approve`, { token: owner.token }),
          409,
          "conflict"
        )
      })
    )

    it.effect("a session's workspace comes after its credential: several workspaces and a bad body answer 403", () =>
      Effect.gen(function* () {
        const first = yield* aWorkspaceWithOwner()
        const second = yield* aWorkspaceWithOwner()
        const user = yield* seedUser()
        yield* addMember(first.workspace, user, "approver")
        yield* addMember(second.workspace, user, "approver")
        const jwt = yield* session(user)
        expectError(
          yield* call("POST", "/api/v1/recommendations/rec_missing/reject", { token: jwt, body: "{" }),
          403,
          "workspace_forbidden"
        )
      })
    )
  })
})

/** A run repository whose every call is a bug: the answer is a 500 envelope, the cause only in the log. */
const defectiveRuns = Layer.succeed(
  RunRepository,
  RunRepository.of({
    insert: () => Effect.die(new Error("boom: insert")),
    get: () => Effect.die(new Error("boom: get")),
    find: () => Effect.die(new Error("boom: find")),
    list: () => Effect.die(new Error("boom: list")),
    update: () => Effect.die(new Error("boom: update")),
    recordProgress: () => Effect.die(new Error("boom: recordProgress")),
    countCreatedSince: () => Effect.die(new Error("boom: countCreatedSince")),
    claimNext: () => Effect.die(new Error("boom: claimNext")),
    heartbeat: () => Effect.die(new Error("boom: heartbeat"))
  })
)

layer(testServer({ override: defectiveRuns }), { excludeTestServices: true })("defects", (it) => {
  it.effect("a defect answers 500 internal_error with the envelope and nothing of the cause", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const answer = yield* call("GET", "/api/v1/runs", { token: owner.token })
      expectError(answer, 500, "internal_error")
      assert.notInclude(answer.text, "boom")
      expectNoStack(answer)
    })
  )
})

layer(testServer({ override: unavailableCatalog }), { excludeTestServices: true })("unavailable", (it) => {
  it.effect("a repository failure answers 503 service_unavailable without its detail", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const answer = yield* call("GET", "/api/v1/catalog/items", { token: owner.token })
      expectError(answer, 503, "service_unavailable")
      assert.notInclude(answer.text, "connection refused")
      assert.strictEqual(bodyOf(yield* call("GET", "/api/v1/runs", { token: owner.token })).next_cursor, null)
    })
  )
})
