import { assert, layer } from "@effect/vitest"
import { aWorkspaceWithOwner } from "@margin/edge/testing/World"
import * as McpTestServer from "@margin/runtime/testing/McpTestServer"
import { Effect } from "effect"
import { postForm, redirectUri } from "./OAuthFlow.ts"
import { initialize, post, request } from "./RawMcp.ts"

// The MCP front door alone (as `npm run start:mcp` serves it, without the REST response guard).
layer(McpTestServer.layer())("X-Content-Type-Options on the MCP front door's JSON", (it) => {
  it.effect("/mcp (200, 401), both metadata documents, registration and the token endpoint: nosniff", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const answers = [
        yield* post(initialize(), { token: owner.token }),
        yield* post(initialize()),
        yield* request("GET", "/.well-known/oauth-protected-resource/mcp"),
        yield* request("GET", "/.well-known/oauth-authorization-server"),
        yield* request("POST", "/oauth/register", { body: { redirect_uris: [redirectUri] } }),
        yield* postForm("/oauth/token", { grant_type: "refresh_token", client_id: "mcl_x", refresh_token: "mrt_x" })
      ]
      assert.deepStrictEqual(
        answers.map((reply) => [reply.status, reply.headers["x-content-type-options"]]),
        [
          [200, "nosniff"],
          [401, "nosniff"],
          [200, "nosniff"],
          [200, "nosniff"],
          [201, "nosniff"],
          [401, "nosniff"]
        ]
      )
    })
  )
})
