import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { TokenId, WorkspaceId } from "../kernel/Ids.ts"
import { auditOf, seedUser, seedWorkspace, useCases, userA, userB, wsA } from "../testing/UseCases.ts"
import { MembershipRepository } from "./MembershipRepository.ts"
import { OperatorTokens } from "./OperatorTokens.ts"
import { TokenRepository } from "./TokenRepository.ts"
import { TokenSecrets } from "./TokenSecrets.ts"
import { UserRepository } from "./UserRepository.ts"

const secrets = Layer.succeed(TokenSecrets, TokenSecrets.of({ next: Effect.succeed({ secret: "pck_s", hash: "h" }) }))
const operatorTokens = Layer.provideMerge(OperatorTokens.layer, Layer.merge(useCases, secrets))

const request = { workspaceId: wsA, scopes: ["runs:read" as const], name: "ci", expiresInSeconds: 60 }

describe("OperatorTokens", () => {
  it.effect("issues a member's token (only its hash stored), revokes it once, each audited", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "max")
      yield* seedUser(userA, true)
      yield* MembershipRepository.use((memberships) =>
        memberships.upsert({ workspaceId: wsA, userId: userA, role: "analyst" })
      )
      yield* TestClock.setTime(1_000)
      const service = yield* OperatorTokens
      const issued = yield* service.issue({ ...request, userId: userA }, "system:test")
      assert.strictEqual(Redacted.value(issued.secret), "pck_s")
      assert.strictEqual(issued.token.expiresAt, 61_000)
      const found = yield* TokenRepository.use((tokens) => tokens.findBySecretHash("h"))
      assert.strictEqual(Option.getOrThrow(found).id, issued.token.id)
      assert.isTrue((yield* service.revoke(issued.token.id, "system:test")).revokedNow)
      assert.isFalse((yield* service.revoke(issued.token.id, "system:test")).revokedNow)
      const events = (yield* auditOf(wsA)).map((e) => [e.action, e.resourceId, e.afterStatus])
      assert.deepStrictEqual(events, [
        ["token.create", issued.token.id, "active"],
        ["token.revoke", issued.token.id, "revoked"]
      ])
    }).pipe(Effect.provide(operatorTokens))
  )

  it.effect("refuses a non-member, a deleted user, an unknown workspace or token", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "max")
      yield* seedUser(userA, true)
      yield* seedUser(userB, true)
      yield* MembershipRepository.use((memberships) =>
        memberships.upsert({ workspaceId: wsA, userId: userB, role: "analyst" })
      )
      yield* UserRepository.use((users) => users.markDeleted(userB, 5))
      const service = yield* OperatorTokens
      const tags = yield* Effect.all([
        Effect.flip(service.issue({ ...request, userId: userA }, "system:test")),
        Effect.flip(service.issue({ ...request, userId: userB }, "system:test")),
        Effect.flip(
          service.issue({ ...request, workspaceId: WorkspaceId.make("ws_none"), userId: userA }, "system:test")
        ),
        Effect.flip(service.revoke(TokenId.make("tok_none"), "system:test"))
      ])
      assert.deepStrictEqual(
        tags.map((failure) => failure._tag),
        ["NotAMember", "UserDeleted", "ResourceNotFound", "ResourceNotFound"]
      )
      assert.deepStrictEqual(yield* auditOf(wsA), [])
    }).pipe(Effect.provide(operatorTokens))
  )
})
