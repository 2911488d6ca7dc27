import { assert, describe, it } from "@effect/vitest"
import { UserId } from "@margin/core/kernel/Ids"
import { signInMailKey } from "./OAuthLoginRoute.ts"

describe("OAuthLoginRoute", () => {
  it("each sign-in mail has a key of its own, also for one user in one millisecond (one .eml file each)", () => {
    const user = UserId.make("usr_01abcdefghjkmnpqrstvwxyz0")
    const keys = new Set(Array.from({ length: 300 }, () => signInMailKey(user, 1_700_000_000_000)))
    assert.strictEqual(keys.size, 300)
  })
})
