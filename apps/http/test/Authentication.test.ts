import { assert, layer } from "@effect/vitest"
import { type Scope, scopes } from "@margin/core/access/Scope"
import { UserRepository } from "@margin/core/access/UserRepository"
import { seedUser } from "@margin/core/testing/Seed"
import {
  addMember,
  aWorkspaceWithOwner,
  issueToken,
  member,
  seedRecommendation,
  session
} from "@margin/edge/testing/World"
import { Api } from "@margin/rest/api"
import { bodyOf, type CallOptions, call, expectError, layer as testServer } from "@margin/runtime/testing/TestServer"
import { Clock, Effect } from "effect"
import { HttpApi } from "effect/http-api"
import { type Operation, operations, requestOptions } from "./Operations.ts"

/** docs/contract.md, "Who may call" (and the 401/403 rows of its errors), for every operation. */

const send = (operation: Operation, options: CallOptions = {}) =>
  call(operation.method, operation.path, requestOptions(operation, options))

const allBut = (scope: Scope): ReadonlyArray<Scope> => scopes.filter((candidate) => candidate !== scope)

layer(testServer(), { excludeTestServices: true })("authentication and authorization", (it) => {
  it("the operation table covers every /api/v1 endpoint", () => {
    const declared: Array<string> = []
    HttpApi.reflect(Api, {
      onGroup: () => {},
      onEndpoint: ({ endpoint }) => {
        if (endpoint.path.startsWith("/api/v1/")) declared.push(endpoint.identifier)
      }
    })
    assert.deepStrictEqual(operations.map((operation) => operation.name).sort(), declared.sort())
  })

  it.effect("401 unauthorized without a token, on every operation, with a Bearer challenge", () =>
    Effect.forEach(operations, (operation) =>
      Effect.map(send(operation), (reply) => {
        expectError(reply, 401, "unauthorized")
        assert.strictEqual(reply.headers["www-authenticate"], 'Bearer realm="api"')
      })
    )
  )

  it.effect("401 unauthorized for an unknown, a revoked and an expired token, and a malformed header", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const now = yield* Clock.currentTimeMillis
      const revoked = yield* issueToken(workspace, owner.user, { overrides: { revokedAt: now - 1000 } })
      const expired = yield* issueToken(workspace, owner.user, { overrides: { expiresAt: now - 1000 } })
      const credentials: ReadonlyArray<CallOptions> = [
        { token: "pck_this-token-was-never-issued" },
        { token: revoked.secret },
        { token: expired.secret },
        { headers: { authorization: `Token ${owner.token}` } },
        { headers: { authorization: "Bearer" } },
        { headers: { authorization: "Bearer not-a-jwt" } },
        { headers: { authorization: owner.token } }
      ]
      for (const operation of operations) {
        for (const options of credentials) {
          const reply = yield* send(operation, options)
          expectError(reply, 401, "unauthorized")
          assert.strictEqual(reply.headers["www-authenticate"], 'Bearer realm="api"')
        }
      }
    })
  )

  it.effect("403 insufficient_scope naming the missing scope, on every operation", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      for (const operation of operations) {
        const { secret } = yield* issueToken(workspace, owner.user, { scopes: allBut(operation.scope) })
        const body = expectError(yield* send(operation, { token: secret }), 403, "insufficient_scope")
        assert.strictEqual(body.required, operation.scope, operation.name)
      }
    })
  )

  it.effect("a token with only the operation's scope gets past every check before the resource", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      for (const operation of operations) {
        const { secret } = yield* issueToken(workspace, owner.user, { scopes: [operation.scope] })
        const reply = yield* send(operation, { token: secret })
        assert.isTrue(
          reply.status === 200 || reply.status === 201 || reply.status === 202 || reply.status === 404,
          `${operation.name}: ${reply.text}`
        )
      }
    })
  )

  it.effect("403 token_unusable on mutations once the issuing user is deleted; reads still work", () =>
    Effect.gen(function* () {
      const { workspace } = yield* aWorkspaceWithOwner()
      const departed = yield* member(workspace, "admin")
      const now = yield* Clock.currentTimeMillis
      yield* UserRepository.use((users) => users.markDeleted(departed.user.id, now))
      for (const operation of operations) {
        const reply = yield* send(operation, { token: departed.token })
        if (operation.mutation) expectError(reply, 403, "token_unusable")
        else assert.strictEqual(reply.status === 200 || reply.status === 404, true, `${operation.name}: ${reply.text}`)
      }
    })
  )

  it.effect("session JWTs: accepted by approve, reject and workspace status only; 401 elsewhere", () =>
    Effect.gen(function* () {
      const { workspace } = yield* aWorkspaceWithOwner()
      const approver = yield* member(workspace, "approver")
      const jwt = yield* session(approver.user)
      for (const operation of operations) {
        const reply = yield* send(operation, { token: jwt })
        if (operation.session)
          assert.isTrue(reply.status === 200 || reply.status === 404, `${operation.name}: ${reply.text}`)
        else expectError(reply, 401, "unauthorized")
      }
      const pending = yield* seedRecommendation(workspace, { status: "pending_approval" })
      const approved = yield* call("POST", `/api/v1/recommendations/${pending.id}/approve`, { token: jwt })
      assert.strictEqual(approved.status, 200)
      assert.strictEqual(Object(bodyOf(approved).recommendation).decided_by, `user:${approver.user.id}`)
    })
  )

  it.effect("session JWTs: an expired, tampered or foreign session is 401; a deleted user's session is 401", () =>
    Effect.gen(function* () {
      const { workspace } = yield* aWorkspaceWithOwner()
      const approver = yield* member(workspace, "approver")
      const jwt = yield* session(approver.user)
      const [header, payload] = jwt.split(".")
      const tampered = `${header}.${payload}.c2lnbmF0dXJl`
      const expired = yield* session(approver.user, -60)
      for (const token of [tampered, expired, "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."]) {
        expectError(yield* call("GET", "/api/v1/workspace/status", { token }), 401, "unauthorized")
      }
      const now = yield* Clock.currentTimeMillis
      yield* UserRepository.use((users) => users.markDeleted(approver.user.id, now))
      expectError(yield* call("GET", "/api/v1/workspace/status", { token: jwt }), 401, "unauthorized")
    })
  )

  it.effect("session callers in several workspaces must name one with x-workspace-id: 403 workspace_forbidden", () =>
    Effect.gen(function* () {
      const first = yield* aWorkspaceWithOwner()
      const second = yield* aWorkspaceWithOwner()
      const stranger = yield* aWorkspaceWithOwner()
      const user = yield* seedUser()
      yield* addMember(first.workspace, user, "approver")
      const jwt = yield* session(user)

      const single = yield* call("GET", "/api/v1/workspace/status", { token: jwt })
      assert.strictEqual(single.status, 200, "one workspace needs no header")

      yield* addMember(second.workspace, user, "viewer")
      for (const operation of operations.filter((candidate) => candidate.session)) {
        expectError(yield* send(operation, { token: jwt }), 403, "workspace_forbidden")
        expectError(
          yield* send(operation, { token: jwt, headers: { "x-workspace-id": "ws_nope" } }),
          403,
          "workspace_forbidden"
        )
        expectError(
          yield* send(operation, { token: jwt, headers: { "x-workspace-id": stranger.workspace.id } }),
          403,
          "workspace_forbidden"
        )
      }
      const named = yield* call("GET", "/api/v1/workspace/status", {
        token: jwt,
        headers: { "x-workspace-id": second.workspace.id }
      })
      assert.strictEqual(named.status, 200)
    })
  )

  it.effect("a token is bound to its workspace: x-workspace-id naming another is 403 workspace_forbidden", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const other = yield* aWorkspaceWithOwner()
      const headers = { "x-workspace-id": other.workspace.id }
      expectError(yield* call("GET", "/api/v1/runs", { token: owner.token, headers }), 403, "workspace_forbidden")
      const own = yield* call("GET", "/api/v1/runs", {
        token: owner.token,
        headers: { "x-workspace-id": workspace.id }
      })
      assert.strictEqual(own.status, 200)
    })
  )

  it.effect("approve and reject need approver, admin or owner: 403 forbidden_role below", () =>
    Effect.gen(function* () {
      const { workspace } = yield* aWorkspaceWithOwner()
      for (const role of ["viewer", "analyst"] as const) {
        const caller = yield* member(workspace, role)
        const pending = yield* seedRecommendation(workspace, { status: "pending_approval" })
        const base = `/api/v1/recommendations/${pending.id}`
        expectError(yield* call("POST", `${base}/approve`, { token: caller.token }), 403, "forbidden_role")
        expectError(
          yield* call("POST", `${base}/reject`, { token: caller.token, body: { reason: "x" } }),
          403,
          "forbidden_role"
        )
        const jwt = yield* session(caller.user)
        expectError(yield* call("POST", `${base}/approve`, { token: jwt }), 403, "forbidden_role")
      }
      for (const role of ["approver", "admin", "owner"] as const) {
        const caller = yield* member(workspace, role)
        const approve = yield* seedRecommendation(workspace, { status: "pending_approval" })
        const reject = yield* seedRecommendation(workspace, { status: "pending_approval" })
        assert.strictEqual(
          (yield* call("POST", `/api/v1/recommendations/${approve.id}/approve`, { token: caller.token })).status,
          200
        )
        const rejected = yield* call("POST", `/api/v1/recommendations/${reject.id}/reject`, {
          token: caller.token,
          body: { reason: "no" }
        })
        assert.strictEqual(rejected.status, 200, role)
      }
    })
  )

  it.effect("a token whose issuer left the workspace has no role: approve is 403 forbidden_role", () =>
    Effect.gen(function* () {
      const { workspace } = yield* aWorkspaceWithOwner()
      const outsider = yield* seedUser()
      const { secret } = yield* issueToken(workspace, outsider)
      const pending = yield* seedRecommendation(workspace, { status: "pending_approval" })
      expectError(
        yield* call("POST", `/api/v1/recommendations/${pending.id}/approve`, { token: secret }),
        403,
        "forbidden_role"
      )
    })
  )

  it.effect(
    "approve needs Max or Enterprise (422 tier_ineligible) and a connected store (422 no_commerce_integration)",
    () =>
      Effect.gen(function* () {
        for (const plan of ["free", "pro"] as const) {
          const { workspace, owner } = yield* aWorkspaceWithOwner({ plan })
          const pending = yield* seedRecommendation(workspace, { status: "pending_approval" })
          expectError(
            yield* call("POST", `/api/v1/recommendations/${pending.id}/approve`, { token: owner.token }),
            422,
            "tier_ineligible"
          )
        }
        const unconnected = yield* aWorkspaceWithOwner({ plan: "enterprise", store: false })
        const pending = yield* seedRecommendation(unconnected.workspace, { status: "pending_approval" })
        expectError(
          yield* call("POST", `/api/v1/recommendations/${pending.id}/approve`, { token: unconnected.owner.token }),
          422,
          "no_commerce_integration"
        )
      })
  )
})
