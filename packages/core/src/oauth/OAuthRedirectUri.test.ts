import { assert, describe, it } from "@effect/vitest"
import { redirectUriAcceptable } from "./OAuthRedirectUri.ts"

describe("OAuthRedirectUri.redirectUriAcceptable", () => {
  it("accepts https, http on loopback and private-use schemes, reverse-domain or not", () => {
    for (const uri of [
      "https://agent.example/callback",
      "http://127.0.0.1:33418/callback",
      "http://127.0.0.1/",
      "http://localhost:6274/oauth/callback",
      "http://[::1]:9/cb",
      "com.example.agent:/callback",
      "cursor://anysphere.cursor-mcp/oauth/callback",
      "vscode://vscode.github-authentication/did-authenticate",
      "my-agent+dev:/cb"
    ]) {
      assert.isTrue(redirectUriAcceptable(uri), uri)
    }
  })

  it("refuses plain http elsewhere, fragments, userinfo, relative URIs and schemes the browser or OS handles", () => {
    for (const uri of [
      "http://agent.example/callback",
      "http://10.0.0.5/cb",
      "http://127.0.0.1.nip.io/cb",
      "https://agent.example/cb#frag",
      "https://user:pw@agent.example/cb",
      "/callback",
      "callback",
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:text/html,hi",
      "file:///etc/passwd",
      "blob:https://agent.example/1",
      "vbscript:msgbox",
      "about:blank",
      "view-source:https://agent.example/",
      "ws://127.0.0.1/cb",
      "wss://agent.example/cb",
      "ftp://agent.example/cb",
      "mailto:someone@example.com",
      "tel:+15551234",
      "intent://scan/#Intent;scheme=zxing;end",
      "ms-msdt:/id PCWDiagnostic",
      "ms-settings:privacy",
      "search-ms:query=x",
      "chrome-extension://abc/cb",
      "cursor://anysphere.cursor-mcp/oauth/callback#x"
    ]) {
      assert.isFalse(redirectUriAcceptable(uri), uri)
    }
  })
})
