import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { UserId } from "../kernel/Ids.ts"
import { auditOf, seedUser, seedWorkspace, useCases, userA, wsA, wsB } from "../testing/UseCases.ts"
import { Accounts } from "./Accounts.ts"
import { MembershipRepository } from "./MembershipRepository.ts"
import { UserRepository } from "./UserRepository.ts"

const accounts = Layer.provideMerge(Accounts.layer, useCases)

describe("Accounts", () => {
  it.effect("creates a user; another user with the same address is refused", () =>
    Effect.gen(function* () {
      const service = yield* Accounts
      const user = yield* service.create("ada@acme.example", false)
      assert.isFalse(user.emailConfirmed)
      const stored = yield* UserRepository.use((users) => users.findByEmail("ada@acme.example"))
      assert.strictEqual(Option.getOrThrow(stored).id, user.id)
      const taken = yield* Effect.flip(service.create("ada@acme.example", true))
      assert.deepStrictEqual(taken._tag === "EmailTaken" ? taken.userId : taken._tag, user.id)
    }).pipe(Effect.provide(accounts))
  )

  it.effect("deletes a user once, audited in each workspace they belong to; unknown is not found", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "free")
      yield* seedWorkspace(wsB, "free")
      yield* seedUser(userA, true)
      yield* MembershipRepository.use((memberships) =>
        Effect.all([
          memberships.upsert({ workspaceId: wsA, userId: userA, role: "owner" }),
          memberships.upsert({ workspaceId: wsB, userId: userA, role: "viewer" })
        ])
      )
      yield* TestClock.setTime(2_000)
      const service = yield* Accounts
      const first = yield* service.delete(userA, "system:test")
      assert.deepStrictEqual([first.deletedNow, first.user.deletedAt], [true, 2_000])
      const again = yield* service.delete(userA, "system:test")
      assert.deepStrictEqual([again.deletedNow, again.user.deletedAt], [false, 2_000])
      for (const workspace of [wsA, wsB]) {
        const events = (yield* auditOf(workspace)).map((e) => [e.action, e.resourceId, e.afterStatus])
        assert.deepStrictEqual(events, [["user.delete", userA, "deleted"]])
      }
      const unknown = yield* Effect.flip(service.delete(UserId.make("usr_unknown"), "system:test"))
      assert.strictEqual(unknown._tag, "ResourceNotFound")
    }).pipe(Effect.provide(accounts))
  )
})
