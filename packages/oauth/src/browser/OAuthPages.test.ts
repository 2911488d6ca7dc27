import { assert, describe, it } from "@effect/vitest"
import { aWorkspace } from "@margin/core/testing/Fixtures"
import { consentPage } from "./OAuthPages.ts"

const view = (clientName: string) =>
  consentPage({
    clientName,
    clientId: "https://agent.example/client.json",
    metadataUrl: "https://agent.example/client.json",
    redirectUri: "http://127.0.0.1:9/cb",
    userEmail: "ada@shop.example",
    workspaces: [{ workspace: aWorkspace({ plan: "max" }), role: "owner" }],
    scopes: ["runs:read"],
    request: {},
    csrf: "c".repeat(43),
    formTargets: ["http://127.0.0.1:9"],
    cookies: []
  })

const bodyOf = (name: string): string => {
  const body = view(name).body
  return body._tag === "Uint8Array" ? new TextDecoder().decode(body.body) : assert.fail(`a ${body._tag} body`)
}

describe("the consent page", () => {
  it("shows a client's name without bidi overrides or controls, isolated in <bdi>, escaped", () => {
    const html = bodyOf("Evil\u202Eelgoog\u2066 <b>\u0000")
    for (const char of ["\u202E", "\u2066", "\u0000"]) assert.notInclude(html, char)
    assert.include(html, "<strong><bdi>Evilelgoog &#60;b&#62;</bdi></strong> asks to act for you")
    assert.include(html, "<title>Connect Evilelgoog &#60;b&#62; to Margin? · Margin</title>")
  })
})
