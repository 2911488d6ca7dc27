import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { TokenId } from "../kernel/Ids.ts"
import * as MemoryAdapters from "../memory/MemoryAdapters.ts"
import { auditOf, seedUser, seedWorkspace, userA, userB, wsA, wsB } from "../testing/UseCases.ts"
import { ApiKeys } from "./ApiKeys.ts"
import { tokenState } from "./ApiToken.ts"
import { MembershipRepository } from "./MembershipRepository.ts"
import { roles } from "./Role.ts"
import { scopesForRole } from "./RoleScopes.ts"
import { scopes } from "./Scope.ts"
import { TokenRepository } from "./TokenRepository.ts"
import { TokenSecrets } from "./TokenSecrets.ts"
import { WorkspaceAccess } from "./WorkspaceAccess.ts"

/** Secrets numbered in order, their hash the secret reversed: enough to tell them apart. */
const countingSecrets = Layer.sync(TokenSecrets, () => {
  let next = 0
  return TokenSecrets.of({
    next: Effect.sync(() => {
      next += 1
      const secret = `pck_test_${next}`
      return { secret, hash: [...secret].reverse().join("") }
    })
  })
})

const useCases = Layer.mergeAll(ApiKeys.layer.pipe(Layer.provide(countingSecrets)), WorkspaceAccess.layer).pipe(
  Layer.provideMerge(MemoryAdapters.layer)
)

const admin = { userId: userA, role: "admin" } as const
const day = 24 * 60 * 60_000

describe("scopesForRole", () => {
  it("grows with the role; a viewer grants only reads, an approver everything but nothing more than admins", () => {
    assert.deepStrictEqual(
      roles.map((role) => scopesForRole(role).length),
      [6, 10, 11, 11, 11]
    )
    assert.isTrue(scopesForRole("viewer").every((scope) => scope.endsWith(":read")))
    assert.notInclude(scopesForRole("analyst"), "recommendations:approve")
    assert.deepStrictEqual(scopesForRole("owner"), [...scopes])
  })
})

describe("ApiKeys", () => {
  it.effect("an admin creates a key: scopes as allowed, expiry from now, stored by hash, audited", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "max")
      yield* TestClock.setTime(1_000)
      const keys = yield* ApiKeys
      const created = yield* keys.create(wsA, admin, {
        name: "  Reporting  ",
        scopes: ["reports:read", "recommendations:read"],
        expiresInDays: 30
      })
      assert.strictEqual(created.secret, "pck_test_1")
      assert.deepStrictEqual(
        [created.token.name, created.token.scopes, created.token.expiresAt, created.token.issuedBy],
        ["Reporting", ["recommendations:read", "reports:read"], 1_000 + 30 * day, userA]
      )
      const found = yield* TokenRepository.use((tokens) => tokens.findBySecretHash("1_tset_kcp"))
      assert.strictEqual(found._tag === "Some" ? found.value.id : null, created.token.id)
      const listed = yield* keys.list(wsA, admin)
      assert.deepStrictEqual(
        listed.items.map((token) => token.id),
        [created.token.id]
      )
      assert.deepStrictEqual(
        (yield* auditOf(wsA)).map((event) => [event.action, event.actor, event.resourceId]),
        [["token.create", `user:${userA}`, created.token.id]]
      )
    }).pipe(Effect.provide(useCases))
  )

  it.effect.each([
    ["an empty name", { name: "  ", scopes: ["runs:read"], expiresInDays: null }, "name"],
    ["a name with a bidi override", { name: "a\u202eb", scopes: ["runs:read"], expiresInDays: null }, "name"],
    ["no scope", { name: "k", scopes: [], expiresInDays: null }, "scopes"],
    ["zero days", { name: "k", scopes: ["runs:read"], expiresInDays: 0 }, "expires_in_days"],
    ["more than a year", { name: "k", scopes: ["runs:read"], expiresInDays: 366 }, "expires_in_days"]
  ] as const)("%s is invalid input, and nothing is stored", ([, input, path]) =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "max")
      const keys = yield* ApiKeys
      const failure = yield* Effect.flip(keys.create(wsA, admin, input))
      assert.deepStrictEqual(
        [failure._tag, failure._tag === "InvalidInput" ? failure.path : null],
        ["InvalidInput", path]
      )
      assert.strictEqual((yield* keys.list(wsA, admin)).items.length, 0)
    }).pipe(Effect.provide(useCases))
  )

  it.effect("an approver may not manage keys, and an admin may not grant beyond the role table", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "max")
      const keys = yield* ApiKeys
      const input = { name: "k", scopes: ["runs:read"] as const, expiresInDays: null }
      for (const role of ["viewer", "analyst", "approver"] as const) {
        const refused = yield* Effect.flip(keys.create(wsA, { userId: userA, role }, input))
        assert.strictEqual(refused._tag, "ForbiddenRole")
        assert.strictEqual((yield* Effect.flip(keys.list(wsA, { userId: userA, role })))._tag, "ForbiddenRole")
      }
      assert.strictEqual(
        (yield* Effect.flip(keys.create(wsA, { userId: userA, role: null }, input)))._tag,
        "ForbiddenRole"
      )
    }).pipe(Effect.provide(useCases))
  )

  it.effect(
    "revoke: the key stops being usable, a repeat answers it as it is, another workspace's key is not found",
    () =>
      Effect.gen(function* () {
        yield* seedWorkspace(wsA, "max")
        yield* seedWorkspace(wsB, "max")
        yield* TestClock.setTime(5_000)
        const keys = yield* ApiKeys
        const created = yield* keys.create(wsA, admin, { name: "k", scopes: ["runs:read"], expiresInDays: null })
        const revoked = yield* keys.revoke(wsA, admin, created.token.id)
        assert.strictEqual(tokenState(revoked, 5_000), "revoked")
        yield* TestClock.setTime(9_000)
        const again = yield* keys.revoke(wsA, admin, created.token.id)
        assert.strictEqual(again.revokedAt, 5_000)
        assert.strictEqual((yield* Effect.flip(keys.revoke(wsB, admin, created.token.id)))._tag, "ResourceNotFound")
        assert.strictEqual(
          (yield* Effect.flip(keys.revoke(wsA, admin, TokenId.make("tok_nope"))))._tag,
          "ResourceNotFound"
        )
        assert.deepStrictEqual(
          (yield* auditOf(wsA)).map((event) => event.action),
          ["token.create", "token.revoke"]
        )
      }).pipe(Effect.provide(useCases))
  )
})

describe("WorkspaceAccess", () => {
  it.effect("a user's workspaces with their roles; another workspace is not found", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "max")
      yield* seedWorkspace(wsB, "free")
      yield* seedUser(userA, true)
      yield* seedUser(userB, true)
      yield* MembershipRepository.use((memberships) =>
        memberships.upsert({ workspaceId: wsA, userId: userA, role: "analyst" })
      )
      yield* MembershipRepository.use((memberships) =>
        memberships.upsert({ workspaceId: wsB, userId: userB, role: "owner" })
      )
      const access = yield* WorkspaceAccess
      assert.deepStrictEqual(
        (yield* access.workspacesOf(userA)).map(({ workspace, role }) => [workspace.id, role]),
        [[wsA, "analyst"]]
      )
      assert.strictEqual((yield* access.membershipIn(wsA, userA)).role, "analyst")
      assert.strictEqual((yield* Effect.flip(access.membershipIn(wsB, userA)))._tag, "ResourceNotFound")
    }).pipe(Effect.provide(useCases))
  )
})
