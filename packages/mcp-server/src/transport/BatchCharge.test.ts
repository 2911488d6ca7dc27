import { assert, describe, it } from "@effect/vitest"
import { messagesIn } from "./BatchCharge.ts"

describe("messagesIn", () => {
  it("counts the messages of a batch, and one for anything else", () => {
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_runs" } }
    assert.strictEqual(messagesIn(JSON.stringify([call, call, call])), 3)
    assert.strictEqual(messagesIn(`  \n${JSON.stringify([call])}`), 1)
    assert.strictEqual(messagesIn(JSON.stringify(call)), 1)
    // An empty batch is one request the server refuses (-32600); it costs what a request costs.
    assert.strictEqual(messagesIn("[]"), 1)
    assert.strictEqual(messagesIn(""), 1)
    assert.strictEqual(messagesIn("ping"), 1)
  })

  it("throws on a batch that is not JSON (the caller counts it once)", () => {
    assert.throws(() => messagesIn("[{bad"))
  })
})
