import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { UserId, WorkspaceId } from "../kernel/Ids.ts"
import { aUser } from "../testing/Fixtures.ts"
import { auditOf, seedUser, seedWorkspace, useCases, userA, wsA } from "../testing/UseCases.ts"
import { Members } from "./Members.ts"
import { UserRepository } from "./UserRepository.ts"

const members = Layer.provideMerge(Members.layer, useCases)

describe("Members", () => {
  it.effect("setRole adds a member, then changes their role, each audited with the role before", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "free")
      yield* seedUser(userA, true)
      yield* TestClock.setTime(1_000)
      const service = yield* Members
      assert.isNull(yield* service.setRole({ workspaceId: wsA, userId: userA, role: "viewer" }, "system:test"))
      assert.strictEqual(
        yield* service.setRole({ workspaceId: wsA, userId: userA, role: "approver" }, "system:test"),
        "viewer"
      )
      const events = (yield* auditOf(wsA)).map((event) => [
        event.action,
        event.resourceId,
        event.beforeStatus,
        event.afterStatus,
        event.actor
      ])
      assert.deepStrictEqual(events, [
        ["member.add", userA, null, "viewer", "system:test"],
        ["member.set_role", userA, "viewer", "approver", "system:test"]
      ])
    }).pipe(Effect.provide(members))
  )

  it.effect("refuses an unknown workspace or user (not found) and a deleted user, writing nothing", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "free")
      const deleted = UserId.make("usr_gone")
      yield* UserRepository.use((users) =>
        users.insert(aUser({ id: deleted, email: "gone@example.com", deletedAt: 5 }))
      )
      const service = yield* Members
      const noWorkspace = yield* Effect.flip(
        service.setRole({ workspaceId: WorkspaceId.make("ws_none"), userId: userA, role: "viewer" }, "system:test")
      )
      assert.deepStrictEqual(
        [noWorkspace._tag, noWorkspace._tag === "ResourceNotFound" && noWorkspace.resource],
        ["ResourceNotFound", "workspace"]
      )
      const noUser = yield* Effect.flip(service.setRole({ workspaceId: wsA, userId: userA, role: "viewer" }, "x"))
      assert.strictEqual(noUser._tag, "ResourceNotFound")
      const gone = yield* Effect.flip(service.setRole({ workspaceId: wsA, userId: deleted, role: "viewer" }, "x"))
      assert.deepStrictEqual(gone._tag === "UserDeleted" && [gone.userId, gone.deletedAt], [deleted, 5])
      assert.deepStrictEqual(yield* auditOf(wsA), [])
    }).pipe(Effect.provide(members))
  )
})
