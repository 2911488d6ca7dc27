import { assert, describe, it } from "@effect/vitest"
import { signValue, verifyValue } from "./SignedValue.ts"

const key = new TextEncoder().encode("k".repeat(32))

describe("SignedValue", () => {
  it("verifies its own value until it expires, for its purpose only", () => {
    const signed = signValue(key, "login", "usr_1", 1_000)
    assert.strictEqual(verifyValue(key, "login", signed, 999), "usr_1")
    assert.isUndefined(verifyValue(key, "login", signed, 1_000))
    assert.isUndefined(verifyValue(key, "link", signed, 0))
    assert.isUndefined(verifyValue(new TextEncoder().encode("x".repeat(32)), "login", signed, 0))
  })

  it("refuses a changed value or expiry, and malformed input", () => {
    const [payload, expiry, signature] = signValue(key, "login", "usr_1", 1_000).split(".")
    const other = Buffer.from("usr_2").toString("base64url")
    assert.isUndefined(verifyValue(key, "login", `${other}.${expiry}.${signature}`, 0))
    assert.isUndefined(verifyValue(key, "login", `${payload}.9999999.${signature}`, 0))
    assert.isUndefined(verifyValue(key, "login", "garbage", 0))
    assert.isUndefined(verifyValue(key, "login", "", 0))
  })
})
