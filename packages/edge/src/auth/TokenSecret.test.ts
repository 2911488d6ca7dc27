import { assert, describe, it } from "@effect/vitest"
import { generateTokenSecret, hashTokenSecret, isTokenSecret } from "./TokenSecret.ts"

describe("TokenSecret", () => {
  it("secrets are pck_ plus 43 base64url characters, never the same twice", () => {
    const secrets = new Set(Array.from({ length: 100 }, generateTokenSecret))
    assert.strictEqual(secrets.size, 100)
    for (const secret of secrets) {
      assert.match(secret, /^pck_[A-Za-z0-9_-]{43}$/)
      assert.isTrue(isTokenSecret(secret))
    }
  })

  it("the stored hash is the hex SHA-256 of the whole secret", () => {
    assert.strictEqual(hashTokenSecret("pck_abc"), "02e751fe3570d26f43a296efc06fd6c692fcb83d9f813361198d1a6dcd4ec352")
    assert.notStrictEqual(hashTokenSecret("pck_abc"), hashTokenSecret("pck_abd"))
  })
})
