import { assert, describe, it } from "@effect/vitest"
import { OAuthSecrets } from "@margin/core/oauth/OAuthSecrets"
import { pkceMatches } from "@margin/core/oauth/Pkce"
import { Effect } from "effect"
import * as NodeOAuthSecrets from "./NodeOAuthSecrets.ts"

describe("NodeOAuthSecrets", () => {
  it.effect("S256 gives RFC 7636 appendix B's challenge for its verifier", () =>
    Effect.gen(function* () {
      const secrets = yield* OAuthSecrets
      const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
      assert.strictEqual(secrets.s256(verifier), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
      assert.isTrue(pkceMatches("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", verifier, secrets.s256))
    }).pipe(Effect.provide(NodeOAuthSecrets.layer))
  )

  it.effect("issues distinct prefixed secrets, stored under their hex SHA-256", () =>
    Effect.gen(function* () {
      const secrets = yield* OAuthSecrets
      const first = yield* secrets.issue("mat_")
      const second = yield* secrets.issue("mat_")
      assert.notStrictEqual(first.secret, second.secret)
      assert.match(first.secret, /^mat_[A-Za-z0-9_-]{43}$/)
      assert.match(first.hash, /^[0-9a-f]{64}$/)
      assert.strictEqual(secrets.hash(first.secret), first.hash)
    }).pipe(Effect.provide(NodeOAuthSecrets.layer))
  )
})
