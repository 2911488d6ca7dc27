import { assert, describe, it } from "@effect/vitest"
import { addressAllowed } from "./AddressPolicy.ts"

describe("AddressPolicy", () => {
  it("refuses private, loopback, link-local and other special addresses, in both families", () => {
    for (const address of [
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "127.0.0.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "::ffff:10.0.0.1",
      "::ffff:127.0.0.1",
      "not-an-address"
    ]) {
      assert.isFalse(addressAllowed(address, false), address)
    }
  })

  it("allows public addresses, and loopback only when told", () => {
    for (const address of ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "8.8.8.8"]) {
      assert.isTrue(addressAllowed(address, false), address)
    }
    assert.isTrue(addressAllowed("127.0.0.1", true))
    assert.isTrue(addressAllowed("::1", true))
    assert.isFalse(addressAllowed("10.0.0.1", true))
  })
})
