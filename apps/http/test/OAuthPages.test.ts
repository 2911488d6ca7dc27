import { assert, layer } from "@effect/vitest"
import { aWorkspaceWithOwner } from "@margin/edge/testing/World"
import { pkce } from "@margin/runtime/testing/OAuthConsent"
import { baseUrl, call, layer as testServer } from "@margin/runtime/testing/TestServer"
import { Effect } from "effect"

/**
 * The OAuth pages in the REST process (`npm start`), behind the REST response guard: an HTML page
 * keeps its body and headers; JSON and CSV answers are never sniffed.
 */

const redirectUri = "http://127.0.0.1:33418/callback"

layer(testServer())("the OAuth pages under the full server", (it) => {
  it.effect("an HTML error page keeps its explanation, CSP, nosniff and no-store (400, 403, 404)", () =>
    Effect.gen(function* () {
      const resource = `${yield* baseUrl}/mcp`
      const unknownClient = yield* call(
        "GET",
        `/oauth/authorize?${new URLSearchParams({
          response_type: "code",
          client_id: "mcl_nobody",
          redirect_uri: redirectUri,
          code_challenge: pkce.challenge,
          code_challenge_method: "S256",
          resource
        })}`
      )
      const expiredForm = yield* call("POST", "/oauth/authorize", {
        body: "csrf=forged",
        headers: { "content-type": "application/x-www-form-urlencoded" }
      })
      const spentLink = yield* call("GET", "/oauth/login/link?token=a.1.b&return_to=%2Foauth%2Fauthorize%3Fx%3D1")
      for (const [reply, status, says] of [
        [unknownClient, 400, "Unknown client_id."],
        [expiredForm, 403, "This form has expired"],
        [spentLink, 400, "already used or has expired"]
      ] as const) {
        assert.strictEqual(reply.status, status, reply.text)
        assert.match(reply.headers["content-type"] ?? "", /^text\/html/)
        assert.include(reply.text, says)
        assert.include(reply.headers["content-security-policy"] ?? "", "default-src 'none'")
        assert.strictEqual(reply.headers["x-content-type-options"], "nosniff")
        assert.strictEqual(reply.headers["cache-control"], "no-store")
      }
      // The router's own answers still get the envelope.
      const unrouted = yield* call("GET", "/oauth/nothing-here")
      assert.strictEqual(unrouted.status, 404)
      assert.match(unrouted.headers["content-type"] ?? "", /^application\/json/)
    })
  )

  it.effect("JSON and CSV answers carry X-Content-Type-Options: nosniff", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const answers = [
        yield* call("GET", "/api/v1/runs", { token: owner.token }),
        yield* call("GET", "/api/v1/runs"),
        yield* call("GET", "/api/v1/reports/export", { token: owner.token }),
        yield* call("GET", "/.well-known/oauth-authorization-server"),
        yield* call("POST", "/oauth/token", {
          body: "grant_type=refresh_token",
          headers: { "content-type": "application/x-www-form-urlencoded" }
        })
      ]
      for (const reply of answers) assert.strictEqual(reply.headers["x-content-type-options"], "nosniff", reply.text)
      assert.match(answers[2]?.headers["content-type"] ?? "", /^text\/csv/)
    })
  )
})
