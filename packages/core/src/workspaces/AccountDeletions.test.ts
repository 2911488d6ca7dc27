import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { MembershipRepository } from "../access/MembershipRepository.ts"
import { UserRepository } from "../access/UserRepository.ts"
import { UserId } from "../kernel/Ids.ts"
import { auditOf, seedUser, seedWorkspace, useCases, userA, wsA } from "../testing/UseCases.ts"
import { AccountDeletions } from "./AccountDeletions.ts"

const deletions = Layer.provideMerge(AccountDeletions.layer, useCases)

describe("AccountDeletions", () => {
  it.effect("schedules once, blocks, cancels; audited in the user's workspaces", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "free")
      yield* seedUser(userA, true)
      yield* MembershipRepository.use((memberships) =>
        memberships.upsert({ workspaceId: wsA, userId: userA, role: "owner" })
      )
      yield* TestClock.setTime(1_000)
      const service = yield* AccountDeletions
      const first = yield* service.request(userA, 14, "system:test")
      assert.deepStrictEqual([first.createdNow, first.request.effectiveAt], [true, 1_000 + 14 * 86_400_000])
      const again = yield* service.request(userA, 3, "system:test")
      assert.deepStrictEqual([again.createdNow, again.request.id], [false, first.request.id])
      assert.strictEqual((yield* service.move(userA, "blocked", "system:test")).state, "pending")
      assert.strictEqual((yield* service.move(userA, "cancelled", "system:test")).state, "blocked")
      const none = yield* Effect.flip(service.move(userA, "cancelled", "system:test"))
      assert.strictEqual(none._tag, "NoActiveDeletion")
      const unknown = yield* Effect.flip(service.request(UserId.make("usr_unknown"), 14, "system:test"))
      assert.strictEqual(unknown._tag, "ResourceNotFound")
      yield* UserRepository.use((users) => users.markDeleted(userA, 2_000))
      const deleted = yield* Effect.flip(service.request(userA, 14, "system:test"))
      assert.strictEqual(deleted._tag, "UserDeleted")
      const events = (yield* auditOf(wsA)).map((e) => [e.action, e.beforeStatus, e.afterStatus])
      assert.deepStrictEqual(events, [
        ["deletion.request", null, "pending"],
        ["deletion.block", "pending", "blocked"],
        ["deletion.cancel", "blocked", "cancelled"]
      ])
    }).pipe(Effect.provide(deletions))
  )
})
