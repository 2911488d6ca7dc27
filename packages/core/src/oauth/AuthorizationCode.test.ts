import { assert, describe, it } from "@effect/vitest"
import { fixtureNow, minuteMs } from "../testing/Fixtures.ts"
import { anAuthorizationCode, fixtureRedirectUri, fixtureResource, oauthFixtureIds } from "../testing/OAuthFixtures.ts"
import { type CodeRedemption, decideRedemption } from "./AuthorizationCode.ts"

const redemption: CodeRedemption = {
  clientId: oauthFixtureIds.client,
  redirectUri: fixtureRedirectUri,
  resource: fixtureResource,
  pkceVerified: true
}
const code = anAuthorizationCode()
const now = fixtureNow + 1_000

describe("AuthorizationCode.decideRedemption", () => {
  it("redeems a fresh code presented by its client, with its redirect URI and a matching verifier", () => {
    assert.strictEqual(decideRedemption(code, redemption, now), "redeemable")
    assert.strictEqual(decideRedemption(code, { ...redemption, resource: undefined }, now), "redeemable")
  })

  it("names each refusal", () => {
    assert.strictEqual(decideRedemption({ ...code, usedAt: fixtureNow }, redemption, now), "replayed")
    assert.strictEqual(decideRedemption(code, redemption, fixtureNow + minuteMs), "expired")
    assert.strictEqual(decideRedemption(code, { ...redemption, clientId: "mcl_other" }, now), "client_mismatch")
    assert.strictEqual(
      decideRedemption(code, { ...redemption, redirectUri: `${fixtureRedirectUri}/` }, now),
      "redirect_mismatch"
    )
    assert.strictEqual(decideRedemption(code, { ...redemption, redirectUri: undefined }, now), "redirect_mismatch")
    assert.strictEqual(
      decideRedemption(code, { ...redemption, resource: "https://evil.example/mcp" }, now),
      "resource_mismatch"
    )
    assert.strictEqual(decideRedemption(code, { ...redemption, pkceVerified: false }, now), "pkce_mismatch")
  })

  it("a replay is named before anything else, so that the grant is revoked whatever else is wrong", () => {
    assert.strictEqual(
      decideRedemption({ ...code, usedAt: fixtureNow }, { ...redemption, pkceVerified: false }, fixtureNow + minuteMs),
      "replayed"
    )
  })
})
