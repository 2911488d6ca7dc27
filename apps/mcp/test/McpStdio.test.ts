import { assert, layer } from "@effect/vitest"
import { TokenRepository } from "@margin/core/access/TokenRepository"
import { TokenId } from "@margin/core/kernel/Ids"
import { anApiToken } from "@margin/core/testing/Fixtures"
import { freshId } from "@margin/core/testing/Seed"
import { WorkspaceRepository } from "@margin/core/workspaces/WorkspaceRepository"
import { generateTokenSecret, hashTokenSecret } from "@margin/edge/auth"
import { aWorkspaceWithOwner, seedRecommendation } from "@margin/edge/testing/World"
import * as McpStdioServer from "@margin/runtime/testing/McpStdioServer"
import { StdioPipe } from "@margin/runtime/testing/StdioPipe"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { Clock, Effect } from "effect"

const secret = generateTokenSecret()

/** The workspace the MARGIN_TOKEN secret belongs to, seeded after the server started. */
const seedTokenWorkspace = Effect.gen(function* () {
  const { workspace, owner } = yield* aWorkspaceWithOwner()
  const now = yield* Clock.currentTimeMillis
  const token = anApiToken({
    id: yield* freshId("token", TokenId.make),
    workspaceId: workspace.id,
    issuedBy: owner.user.id,
    scopes: ["recommendations:read", "recommendations:write"],
    createdAt: now
  })
  yield* TokenRepository.use((tokens) => tokens.insert(token, hashTokenSecret(secret)))
  return { workspace }
})

const callText = (client: Client, name: string, args: Record<string, unknown>) =>
  Effect.map(
    Effect.promise(() => client.callTool({ name, arguments: args })),
    (result) => {
      const first = Array.isArray(result.content) ? result.content[0] : undefined
      return { isError: result.isError === true, text: first?.type === "text" ? first.text : "" }
    }
  )

layer(McpStdioServer.layer({ token: secret }), { excludeTestServices: true })("MCP over stdio", (it) => {
  it.effect("a local agent uses the MARGIN_TOKEN's tools, scopes and workspace; a lost plan is refused", () =>
    Effect.gen(function* () {
      const { workspace } = yield* seedTokenWorkspace
      const recommendation = yield* seedRecommendation(workspace)
      const { transport } = yield* StdioPipe
      const client = new Client({ name: "margin-stdio-test", version: "1.0.0" })
      yield* Effect.acquireRelease(
        Effect.promise(() => client.connect(transport)),
        () => Effect.promise(() => client.close())
      )
      const listed = yield* Effect.promise(() => client.listTools())
      assert.deepStrictEqual(
        listed.tools.map((tool) => tool.name),
        ["list_recommendations", "get_recommendation", "accept_recommendation", "dismiss_recommendation"]
      )
      const accepted = yield* callText(client, "accept_recommendation", { recommendation_id: recommendation.id })
      assert.isFalse(accepted.isError, accepted.text)
      assert.include(accepted.text, `"status":"pending_approval"`)
      const missing = yield* callText(client, "get_recommendation", { recommendation_id: "rec_missing" })
      assert.isTrue(missing.isError)
      assert.include(missing.text, `"code":"not_found"`)

      yield* WorkspaceRepository.use((workspaces) => workspaces.setPlan(workspace.id, "pro"))
      const refused = yield* Effect.flip(
        Effect.tryPromise({
          try: () => client.callTool({ name: "list_recommendations", arguments: {} }),
          catch: (error) => String(error)
        })
      )
      assert.include(refused, "needs a Max or Enterprise plan")
    }).pipe(Effect.scoped)
  )
})
