import { assert, describe, it } from "@effect/vitest"
import { redirectUriAcceptable } from "./OAuthRedirectUri.ts"

describe("OAuthRedirectUri.redirectUriAcceptable", () => {
  it("accepts https, http on loopback and private-use schemes", () => {
    for (const uri of [
      "https://agent.example/callback",
      "http://127.0.0.1:33418/callback",
      "http://localhost:6274/oauth/callback",
      "http://[::1]:9/cb",
      "com.example.agent:/callback"
    ]) {
      assert.isTrue(redirectUriAcceptable(uri), uri)
    }
  })

  it("refuses plain http elsewhere, fragments, userinfo, relative and script URIs", () => {
    for (const uri of [
      "http://agent.example/callback",
      "http://10.0.0.5/cb",
      "https://agent.example/cb#frag",
      "https://user:pw@agent.example/cb",
      "/callback",
      "javascript:alert(1)",
      "data:text/html,hi"
    ]) {
      assert.isFalse(redirectUriAcceptable(uri), uri)
    }
  })
})
