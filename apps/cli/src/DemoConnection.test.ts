import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { demoUrlsConfig, tryItLines } from "./DemoConnection.ts"

const urlsOf = (env: Record<string, string>) => demoUrlsConfig.parse(ConfigProvider.fromEnv({ env }))

describe("marginctl demo: where the service and its MCP endpoint are reached", () => {
  it.effect("from HOST, PORT and MCP_PUBLIC_URL, as the service reads them", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* urlsOf({}), { base: "http://127.0.0.1:8787", mcp: "http://127.0.0.1:8787/mcp" })
      assert.deepStrictEqual(yield* urlsOf({ HOST: "::1", PORT: "9000" }), {
        base: "http://[::1]:9000",
        mcp: "http://[::1]:9000/mcp"
      })
      assert.deepStrictEqual(yield* urlsOf({ PORT: "9000", MCP_PUBLIC_URL: "https://margin.example.com/" }), {
        base: "http://127.0.0.1:9000",
        mcp: "https://margin.example.com/mcp"
      })
    })
  )

  it("prints the MCP URL and how to connect an agent, with a token or by signing in", () => {
    const lines = tryItLines(
      { base: "http://127.0.0.1:8787", mcp: "http://127.0.0.1:8787/mcp" },
      "pck_demo",
      "owner@demo-store.example"
    )
    assert.include(lines, "Connect an AI agent (MCP, Streamable HTTP): http://127.0.0.1:8787/mcp")
    assert.include(
      lines,
      "  claude mcp add --transport http margin http://127.0.0.1:8787/mcp --header 'Authorization: Bearer pck_demo'"
    )
    assert.isTrue(lines.some((line) => line.includes("sign in as owner@demo-store.example")))
    assert.include(
      lines,
      "  curl -s -H 'Authorization: Bearer pck_demo' 'http://127.0.0.1:8787/api/v1/recommendations?status=new&limit=5'"
    )
  })
})
