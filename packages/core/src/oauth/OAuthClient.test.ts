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
      `${fixtureRedirectUri}#x`,
      fixtureRedirectUri.toUpperCase(),
      "http://localhost:33418/callback"
    ]) {
      assert.isFalse(redirectUriAllowed(client, near), near)
    }
  })

  it("matches a loopback redirect at any port (RFC 8252 7.3), with the same host, path and query", () => {
    const client = anOAuthClient({
      redirectUris: [
        "http://127.0.0.1/callback",
        "http://[::1]:33418/",
        "http://localhost/cb?app=1",
        "https://agent.example/cb",
        "cursor://anysphere.cursor-mcp/oauth/callback"
      ]
    })
    for (const uri of [
      "http://127.0.0.1:19214/callback",
      "http://127.0.0.1/callback",
      "http://[::1]:52011/",
      "http://[::1]/",
      "http://localhost:6274/cb?app=1"
    ]) {
      assert.isTrue(redirectUriAllowed(client, uri), uri)
    }
    for (const uri of [
      "http://127.0.0.1:19214/other",
      "http://127.0.0.1:19214/callback/",
      "http://127.0.0.1:19214/callback?x=1",
      "http://127.0.0.1:19214/callback#x",
      "http://user@127.0.0.1:19214/callback",
      "http://localhost:19214/callback",
      "http://127.0.0.2:19214/callback",
      "http://[::1]:52011/x",
      "http://localhost:6274/cb",
      "https://127.0.0.1:19214/callback",
      "https://agent.example:8443/cb",
      "cursor://anysphere.cursor-mcp:9/oauth/callback"
    ]) {
      assert.isFalse(redirectUriAllowed(client, uri), uri)
    }
  })
})
