import { assert, describe, it } from "@effect/vitest"
import { anOAuthClient, fixtureRedirectUri } from "../testing/OAuthFixtures.ts"
import { redirectUriAllowed } from "./OAuthClient.ts"

describe("OAuthClient.redirectUriAllowed", () => {
  it("matches registered redirect URIs exactly, nothing near them", () => {
    const client = anOAuthClient()
    assert.isTrue(redirectUriAllowed(client, fixtureRedirectUri))
    for (const near of [
      `${fixtureRedirectUri}/`,
      `${fixtureRedirectUri}?x=1`,
      fixtureRedirectUri.toUpperCase(),
      "http://localhost:33418/callback"
    ]) {
      assert.isFalse(redirectUriAllowed(client, near), near)
    }
  })
})
