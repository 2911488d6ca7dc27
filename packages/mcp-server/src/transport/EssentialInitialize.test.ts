import { assert, describe, it } from "@effect/vitest"
import { essentialInitialize, maxIdentityLength } from "./EssentialInitialize.ts"

describe("essentialInitialize", () => {
  it("keeps the revision, the client's identity and known capabilities; drops the rest", () => {
    const kept = essentialInitialize({
      jsonrpc: "2.0",
      id: 7,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { roots: { listChanged: true }, elicitation: {}, experimental: { blob: "x".repeat(5000) } },
        clientInfo: {
          name: "n".repeat(1000),
          version: "1.0.0",
          title: "Agent",
          description: "d".repeat(5000),
          icons: [{ src: `data:image/png;base64,${"A".repeat(5000)}` }],
          websiteUrl: "https://agent.example"
        },
        _meta: { padding: "p".repeat(5000) }
      }
    })
    assert.deepStrictEqual(kept, {
      jsonrpc: "2.0",
      id: 7,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { roots: { listChanged: true }, elicitation: {} },
        clientInfo: { name: "n".repeat(maxIdentityLength), version: "1.0.0", title: "Agent" }
      }
    })
  })

  it("leaves what is not an initialize, or is malformed, to the MCP server", () => {
    assert.isUndefined(essentialInitialize({ jsonrpc: "2.0", id: 1, method: "ping" }))
    assert.isUndefined(essentialInitialize([{ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }]))
    assert.isUndefined(essentialInitialize({ jsonrpc: "2.0", id: 1, method: "initialize", params: "x" }))
    assert.deepStrictEqual(
      essentialInitialize({ jsonrpc: "2.0", id: 1, method: "initialize", params: { clientInfo: 5 } }),
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { clientInfo: 5 }
      }
    )
  })
})
