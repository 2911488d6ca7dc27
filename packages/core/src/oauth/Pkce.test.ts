import { assert, describe, it } from "@effect/vitest"
import { isCodeVerifier, pkceMatches } from "./Pkce.ts"

// Core is handed the transform; the real SHA-256 one is tested with RFC 7636's example in
// @margin/edge (OAuthSecrets). A stand-in of the same shape (43 base64url characters) here.
const s256 = (input: string): string => `${[...input].reverse().join("")}${"A".repeat(43)}`.slice(0, 43)

const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
const challenge = s256(verifier)

describe("Pkce", () => {
  it("accepts a verifier whose transform is the challenge", () => {
    assert.isTrue(pkceMatches(challenge, verifier, s256))
  })

  it("refuses another verifier, the plain method (challenge = verifier) and a malformed verifier", () => {
    assert.isFalse(pkceMatches(challenge, `${verifier.slice(0, -1)}A`, s256))
    assert.isFalse(pkceMatches(verifier, verifier, s256))
    const short = "abc"
    assert.isFalse(pkceMatches(s256(short), short, s256))
  })

  it("verifiers are 43 to 128 unreserved characters", () => {
    assert.isTrue(isCodeVerifier("a".repeat(43)))
    assert.isTrue(isCodeVerifier("~._-".repeat(32)))
    assert.isFalse(isCodeVerifier("a".repeat(42)))
    assert.isFalse(isCodeVerifier("a".repeat(129)))
    assert.isFalse(isCodeVerifier(`${"a".repeat(43)}+`))
  })
})
