import { assert, describe, it } from "@effect/vitest"
import { TokenId, UserId, WorkspaceId } from "@margin/core/Ids"
import type { Role } from "@margin/core/Role"
import { Effect, Exit } from "effect"
import { Caller, type CallerShape, callerActor, requireRole } from "./Caller.ts"

const tokenCaller = (role: Role | null): CallerShape => ({
  workspaceId: WorkspaceId.make("ws_1"),
  credential: "token",
  tokenId: TokenId.make("tok_1"),
  userId: UserId.make("usr_1"),
  scopes: ["recommendations:approve"],
  role
})

describe("Caller", () => {
  it.effect("requireRole lets approver, admin and owner through; viewer, analyst and no role get ForbiddenRole", () =>
    Effect.gen(function* () {
      for (const role of ["approver", "admin", "owner"] as const) {
        const exit = yield* Effect.exit(Effect.provideService(requireRole("approver"), Caller, tokenCaller(role)))
        assert.isTrue(Exit.isSuccess(exit), role)
      }
      for (const role of ["viewer", "analyst", null] as const) {
        const error = yield* Effect.flip(Effect.provideService(requireRole("approver"), Caller, tokenCaller(role)))
        assert.strictEqual(error._tag, "ForbiddenRole")
      }
    })
  )

  it("the actor of a token names the token and its issuer; of a session, the user", () => {
    assert.deepStrictEqual(callerActor(tokenCaller("owner")), {
      _tag: "TokenActor",
      tokenId: TokenId.make("tok_1"),
      userId: UserId.make("usr_1")
    })
    assert.deepStrictEqual(callerActor({ ...tokenCaller("owner"), credential: "session", tokenId: null }), {
      _tag: "SessionActor",
      userId: UserId.make("usr_1")
    })
  })
})
