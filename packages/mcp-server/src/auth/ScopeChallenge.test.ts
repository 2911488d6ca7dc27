import { assert, describe, it } from "@effect/vitest"
import { GrantId, TokenId, UserId, WorkspaceId } from "@margin/core/kernel/Ids"
import type { CallerShape } from "@margin/edge/auth"
import { missingScope, readOnlyScopes, unauthorizedChallenge } from "./ScopeChallenge.ts"

const grantCaller: CallerShape = {
  workspaceId: WorkspaceId.make("ws_1"),
  credential: "grant",
  tokenId: TokenId.make("tok_1"),
  grantId: GrantId.make("grt_1"),
  userId: UserId.make("usr_1"),
  scopes: ["runs:read"],
  role: "owner"
}

const call = (name: string) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name } })

describe("ScopeChallenge", () => {
  it("starts with the read-only tools' scopes, named in the 401 challenge", () => {
    assert.deepStrictEqual(readOnlyScopes, [
      "runs:read",
      "recommendations:read",
      "alerts:read",
      "catalog:read",
      "reports:read",
      "workspace:read"
    ])
    assert.strictEqual(
      unauthorizedChallenge("https://m.example/.well-known/oauth-protected-resource/mcp", false),
      'Bearer resource_metadata="https://m.example/.well-known/oauth-protected-resource/mcp", ' +
        'scope="runs:read recommendations:read alerts:read catalog:read reports:read workspace:read"'
    )
    assert.strictEqual(
      unauthorizedChallenge("https://m.example/x", true, ["runs:read", "runs:trigger"]),
      'Bearer resource_metadata="https://m.example/x", scope="runs:read runs:trigger", error="invalid_token"'
    )
  })

  it("challenges a grant's single call beyond its scopes; nothing else", () => {
    for (const [body, caller, expected] of [
      [call("trigger_run"), grantCaller, "runs:trigger"],
      [call("approve_recommendation"), grantCaller, "recommendations:approve"],
      [call("list_runs"), grantCaller, undefined],
      [call("no_such_tool"), grantCaller, undefined],
      [`[${call("trigger_run")}]`, grantCaller, undefined],
      [JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), grantCaller, undefined],
      ["not json", grantCaller, undefined],
      [call("trigger_run"), { ...grantCaller, credential: "token" }, undefined]
    ] as const) {
      assert.strictEqual(missingScope(body, caller), expected, `${caller.credential} ${body}`)
    }
  })
})
