import { assert, layer } from "@effect/vitest"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import {
  assertFailed,
  marginctlJsonListOnTestDatabase,
  marginctlJsonOnTestDatabase,
  marginctlOnTestDatabase,
  textOf
} from "./testing/Marginctl.ts"

/** `marginctl grant list|revoke` as a process, on a grant stored as the consent page stores one. */
layer(TestDatabase.layer, { timeout: "5 minutes" })("marginctl grant", (it) => {
  it.effect("lists a user's grants and revokes one, once, with an audit event", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const workspace = yield* marginctlJsonOnTestDatabase(
        "workspace",
        "create",
        "--name",
        "Grant Goods",
        "--plan",
        "max"
      )
      const user = yield* marginctlJsonOnTestDatabase("user", "create", "--email", "grants@example.com")
      const workspaceId = textOf(workspace.id)
      const userId = textOf(user.id)
      yield* sql`INSERT INTO oauth_clients ${sql.insert({
        id: "mcl_cli",
        name: "Agent",
        redirect_uris: ["http://127.0.0.1:9/cb"],
        token_endpoint_auth_method: "none",
        created_at: new Date()
      })}`
      yield* sql`INSERT INTO oauth_grants ${sql.insert({
        id: "grt_cli",
        user_id: userId,
        client_id: "mcl_cli",
        workspace_id: workspaceId,
        scopes: ["runs:read"],
        resource: "http://127.0.0.1:8787/mcp",
        created_at: new Date()
      })}`

      // A list like every other: { data, next_after, has_more } (jsonListOf checks the shape).
      const listed = yield* marginctlJsonListOnTestDatabase("grant", "list", "--user", userId)
      assert.strictEqual(listed.length, 1)
      assert.deepInclude(listed[0], { id: "grt_cli", workspace_id: workspaceId, revoked_at: null })
      const table = yield* marginctlOnTestDatabase("grant", "list", "--user", userId)
      assert.match(table.stdout, /^ID +STATE +USER +WORKSPACE +CLIENT +SCOPES\ngrt_cli +live +/)

      const revoked = yield* marginctlJsonOnTestDatabase("grant", "revoke", "--grant-id", "grt_cli")
      assert.isFalse(revoked.already_revoked)
      assert.isTrue((yield* marginctlJsonOnTestDatabase("grant", "revoke", "--grant-id", "grt_cli")).already_revoked)
      assertFailed(yield* marginctlOnTestDatabase("grant", "revoke", "--grant-id", "grt_nope"), /no grant grt_nope/, 3)
      const audit = yield* sql<{ readonly action: string }>`
        SELECT action FROM audit_events WHERE resource_id = 'grt_cli'`
      assert.deepStrictEqual(
        audit.map((event) => event.action),
        ["grant.revoke"]
      )
    })
  )
})
