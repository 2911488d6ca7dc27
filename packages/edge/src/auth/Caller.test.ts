import { assert, describe, it } from "@effect/vitest"
import type { Role } from "@margin/core/access/Role"
import { TokenId, UserId, WorkspaceId } from "@margin/core/kernel/Ids"
import { type CallerShape, callerActor } from "./Caller.ts"

const tokenCaller = (role: Role | null): CallerShape => ({
  workspaceId: WorkspaceId.make("ws_1"),
  credential: "token",
  tokenId: TokenId.make("tok_1"),
  userId: UserId.make("usr_1"),
  scopes: ["recommendations:approve"],
  role
})

describe("Caller", () => {
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
