import { assert, describe, it, layer } from "@effect/vitest"
import { RunRepository } from "@margin/core/runs/RunRepository"
import { requestIdOf, withRequestId } from "@margin/edge/telemetry"
import { aWorkspaceWithOwner, issueToken } from "@margin/edge/testing/World"
import { call, expectError, layer as testServer } from "@margin/runtime/testing/TestServer"
import { Effect, Layer, Logger, References } from "effect"
import { HttpServerResponse } from "effect/http"

describe("requestIdOf", () => {
  it("keeps a sane incoming id and replaces anything else with a UUID", () => {
    assert.strictEqual(requestIdOf("abc-123_X.y:z"), "abc-123_X.y:z")
    for (const insane of [undefined, "", "a b", "x".repeat(129), "inject\nheader", "é"]) {
      assert.match(requestIdOf(insane), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    }
    assert.notStrictEqual(requestIdOf(undefined), requestIdOf(undefined))
  })

  it("withRequestId: header always; request_id only in a JSON object error body", () => {
    const ok = withRequestId(HttpServerResponse.jsonUnsafe({ a: 1 }), "r1")
    assert.strictEqual(ok.headers["x-request-id"], "r1")
    assert.deepStrictEqual(ok.body._tag === "Uint8Array" ? new TextDecoder().decode(ok.body.body) : null, '{"a":1}')
    const failed = withRequestId(HttpServerResponse.jsonUnsafe({ code: "x", message: "m" }, { status: 404 }), "r2")
    assert.deepStrictEqual(
      failed.body._tag === "Uint8Array" ? JSON.parse(new TextDecoder().decode(failed.body.body)) : null,
      { code: "x", message: "m", request_id: "r2" }
    )
    const text = withRequestId(HttpServerResponse.text("nope", { status: 500 }), "r3")
    assert.strictEqual(text.body._tag === "Uint8Array" ? new TextDecoder().decode(text.body.body) : null, "nope")
  })
})

interface Line {
  readonly message: unknown
  readonly annotations: Readonly<Record<string, unknown>>
}
const lines: Array<Line> = []
const capture = Logger.make<unknown, void>(({ message, fiber }) => {
  lines.push({ message, annotations: { ...fiber.getRef(References.CurrentLogAnnotations) } })
})

/** The runs port logs from inside the use case, as any adapter may: that line must name the request too. */
const loggingRuns = Layer.effect(
  RunRepository,
  RunRepository.useSync((runs) =>
    RunRepository.of({
      ...runs,
      list: (workspaceId, filter, page) =>
        Effect.andThen(Effect.logInfo("listing runs"), runs.list(workspaceId, filter, page))
    })
  )
)

const messageOf = (line: Line): string => (Array.isArray(line.message) ? line.message.join(" ") : String(line.message))

layer(testServer({ override: loggingRuns, minimumLogLevel: "Info" }).pipe(Layer.provide(Logger.layer([capture]))), {
  excludeTestServices: true
})("request ids", (it) => {
  it.effect("an incoming x-request-id is answered and annotates every log line with caller and workspace", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      lines.length = 0
      const reply = yield* call("GET", "/api/v1/runs", { token: owner.token, headers: { "x-request-id": "req-abc" } })
      assert.strictEqual(reply.status, 200)
      assert.strictEqual(reply.headers["x-request-id"], "req-abc")
      const mine = lines.filter((line) => line.annotations.request_id === "req-abc")
      const inner = mine.find((line) => messageOf(line) === "listing runs")
      assert.isDefined(inner, JSON.stringify(lines))
      assert.strictEqual(inner?.annotations.workspace, workspace.id)
      assert.match(String(inner?.annotations.caller), /^token:/)
      const summary = mine.find((line) => messageOf(line) === "http request")
      assert.strictEqual(summary?.annotations.status, 200)
      assert.isNumber(summary?.annotations.duration_ms)
      assert.strictEqual(summary?.annotations.workspace, workspace.id)
      assert.notInclude(JSON.stringify(lines), owner.token, "the secret never reaches a log line")
    })
  )

  it.effect(
    "a refused request's line still names the caller the credential identified (403, 401 of a revoked token)",
    () =>
      Effect.gen(function* () {
        const { workspace, owner } = yield* aWorkspaceWithOwner()
        const readOnly = yield* issueToken(workspace, owner.user, { scopes: ["runs:read"] })
        const revoked = yield* issueToken(workspace, owner.user, { overrides: { revokedAt: 1 } })
        lines.length = 0
        expectError(
          yield* call("POST", "/api/v1/runs", {
            token: readOnly.secret,
            body: {},
            headers: { "x-request-id": "req-scope" }
          }),
          403,
          "insufficient_scope"
        )
        expectError(
          yield* call("GET", "/api/v1/runs", { token: revoked.secret, headers: { "x-request-id": "req-revoked" } }),
          401,
          "unauthorized"
        )
        const summaryOf = (requestId: string) =>
          lines.find((line) => line.annotations.request_id === requestId && messageOf(line) === "http request")
        const scope = summaryOf("req-scope")
        assert.strictEqual(scope?.annotations.status, 403)
        assert.strictEqual(scope?.annotations.caller, `token:${readOnly.token.id}`)
        assert.strictEqual(scope?.annotations.workspace, workspace.id)
        const gone = summaryOf("req-revoked")
        assert.strictEqual(gone?.annotations.status, 401)
        assert.strictEqual(gone?.annotations.caller, `token:${revoked.token.id}`)
        const anonymous = expectError(yield* call("GET", "/api/v1/runs"), 401, "unauthorized")
        const unknown = lines.find(
          (line) => line.annotations.request_id === anonymous.request_id && messageOf(line) === "http request"
        )
        assert.isNull(unknown?.annotations.caller)
      })
  )

  it.effect("without one (or with an insane one) a fresh id is generated, in the header and the error body", () =>
    Effect.gen(function* () {
      const first = expectError(yield* call("GET", "/api/v1/runs"), 401, "unauthorized")
      const second = expectError(
        yield* call("GET", "/api/v1/nowhere", { headers: { "x-request-id": "has space" } }),
        404,
        "not_found"
      )
      assert.notStrictEqual(first.request_id, second.request_id)
      assert.notStrictEqual(second.request_id, "has space")
    })
  )
})
