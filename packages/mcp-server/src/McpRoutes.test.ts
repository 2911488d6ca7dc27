import { assert, it } from "@effect/vitest"
import { aWorkspaceWithOwner } from "@margin/edge/testing/World"
import { Effect } from "effect"
import { connect } from "./testing/AgentClient.ts"
import * as McpTestServer from "./testing/McpTestServer.ts"

it.layer(McpTestServer.layer())("MCP over Streamable HTTP", (it) => {
  it.effect("initializes and lists tools", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const agent = yield* connect(owner.token)
      const tools = yield* Effect.promise(() => agent.client.listTools())
      console.log(JSON.stringify(tools, null, 1).slice(0, 3000))
      console.log(agent.transport.protocolVersion, agent.client.getServerVersion(), agent.requests())
      const out = yield* agent.call("list_runs", {})
      console.log(JSON.stringify(out))
      const bad = yield* agent.call("get_run", { run_id: "run_nope" })
      console.log(JSON.stringify(bad))
      assert.isTrue(tools.tools.length > 0)
    }).pipe(Effect.scoped)
  )
})
