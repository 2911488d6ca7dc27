import { assert, describe, it } from "@effect/vitest"
import { fixtureNow, hourMs, minuteMs } from "../testing/Fixtures.ts"
import { aGrant, anOAuthToken } from "../testing/OAuthFixtures.ts"
import { accessTokenState, decideRefresh } from "./OAuthToken.ts"

const grant = aGrant()
const now = fixtureNow + minuteMs

describe("OAuthToken", () => {
  it("an access token is usable until it expires, is revoked, or its grant is", () => {
    const access = anOAuthToken({ kind: "access" })
    assert.strictEqual(accessTokenState(access, grant, now), "usable")
    assert.strictEqual(accessTokenState(access, grant, fixtureNow + hourMs), "expired")
    assert.strictEqual(accessTokenState({ ...access, revokedAt: now }, grant, now), "revoked")
    assert.strictEqual(accessTokenState(access, { ...grant, revokedAt: fixtureNow }, now), "grant_revoked")
  })

  it("a refresh token rotates once; a second use is a reuse", () => {
    const refresh = anOAuthToken({ kind: "refresh" })
    assert.strictEqual(decideRefresh(refresh, grant, now), "rotate")
    assert.strictEqual(decideRefresh({ ...refresh, usedAt: fixtureNow }, grant, now), "reused")
    assert.strictEqual(decideRefresh(refresh, grant, fixtureNow + hourMs), "expired")
  })

  it("a revoked refresh token, one of a revoked grant, and an access token presented as one are revoked", () => {
    const refresh = anOAuthToken({ kind: "refresh" })
    assert.strictEqual(decideRefresh({ ...refresh, revokedAt: fixtureNow }, grant, now), "revoked")
    assert.strictEqual(
      decideRefresh({ ...refresh, usedAt: fixtureNow }, { ...grant, revokedAt: fixtureNow }, now),
      "revoked"
    )
    assert.strictEqual(decideRefresh(anOAuthToken({ kind: "access" }), grant, now), "revoked")
  })
})
