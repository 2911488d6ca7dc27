import { NodeServices } from "@effect/platform-node"
import { assert, layer } from "@effect/vitest"
import { scopes } from "@margin/core/access/Scope"
import { SessionVerifier } from "@margin/edge/auth"
import { PgIdentityKeyStore } from "@margin/postgres"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { ConfigProvider, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import {
  assertFailed,
  listOf,
  marginctlJsonOnTestDatabase,
  marginctlOnTestDatabase,
  processTimeout,
  recordOf,
  textOf
} from "./testing/Marginctl.ts"

/** marginctl session-token, support, deletion and demo as processes, on a fresh migrated database (see CliAccounts.test.ts). */

layer(TestDatabase.layer, { timeout: "5 minutes" })(
  "marginctl as a process: session tokens, support, deletion, demo",
  (it) => {
    it.effect(
      "signs session tokens that the service's verifier accepts, and runs support and deletion workflows",
      () =>
        Effect.gen(function* () {
          const workspaceId = textOf(
            (yield* marginctlJsonOnTestDatabase("workspace", "create", "--name", "Support Co")).id
          )
          const userId = textOf(
            (yield* marginctlJsonOnTestDatabase("user", "create", "--email", "grace@support.example")).id
          )
          const session = yield* marginctlJsonOnTestDatabase("session-token", "--user", userId, "--expires-in", "600")
          const verified = yield* SessionVerifier.use((verifier) => verifier.verify(textOf(session.token))).pipe(
            Effect.provide(
              SessionVerifier.layer.pipe(
                Layer.provide([
                  PgIdentityKeyStore.layer,
                  NodeServices.layer,
                  ConfigProvider.layer(ConfigProvider.fromEnvRecord({}))
                ])
              )
            )
          )
          assert.strictEqual(verified, userId)
          assertFailed(yield* marginctlOnTestDatabase("session-token", "--user", "usr_nope"), /no user usr_nope/, 3)

          const opened = yield* marginctlJsonOnTestDatabase(
            "support",
            "open",
            "--workspace",
            workspaceId,
            "--admin-email",
            "support@margin.example",
            "--minutes",
            "30"
          )
          assert.strictEqual(opened.admin_email, "support@margin.example")
          assertFailed(
            yield* marginctlOnTestDatabase(
              "support",
              "open",
              "--workspace",
              workspaceId,
              "--admin-email",
              "other@margin.example"
            ),
            /is open on ws_.* close it first/,
            4
          )
          assert.strictEqual(
            (yield* marginctlJsonOnTestDatabase("support", "close", "--workspace", workspaceId)).closed,
            1
          )

          const requested = yield* marginctlJsonOnTestDatabase(
            "deletion",
            "request",
            "--user",
            userId,
            "--effective-in-days",
            "7"
          )
          assert.deepStrictEqual([requested.state, requested.already_requested], ["pending", false])
          assert.isTrue((yield* marginctlJsonOnTestDatabase("deletion", "request", "--user", userId)).already_requested)
          assert.strictEqual(
            (yield* marginctlJsonOnTestDatabase("deletion", "block", "--user", userId)).state,
            "blocked"
          )
          const cancelled = yield* marginctlJsonOnTestDatabase("deletion", "cancel", "--user", userId)
          assert.deepStrictEqual([cancelled.previous_state, cancelled.state], ["blocked", "cancelled"])
          assertFailed(
            yield* marginctlOnTestDatabase("deletion", "cancel", "--user", userId),
            /has no pending or blocked deletion request/,
            4
          )
        }),
      processTimeout
    )

    it.effect(
      "seeds the demo once; a second demo finds it and only issues fresh tokens",
      () =>
        Effect.gen(function* () {
          const first = yield* marginctlJsonOnTestDatabase("demo")
          assert.isTrue(first.created)
          assert.strictEqual(first.plan, "max")
          assert.strictEqual(first.catalog_items, 200)
          assert.strictEqual(first.mcp_url, "http://127.0.0.1:8787/mcp")
          const run = recordOf(first.run)
          assert.strictEqual(run.status, "succeeded")
          assert.isAbove(Number(run.recommendations), 0)
          assert.isAbove(Number(run.alerts), 0)
          const tokens = listOf(first.tokens).map(recordOf)
          assert.deepStrictEqual(
            tokens.map((token) => [token.role, listOf(token.scopes).length]),
            [
              ["owner", scopes.length],
              ["approver", scopes.length]
            ]
          )
          assert.deepStrictEqual(recordOf(first.store).sandbox_variants, 200)

          const second = yield* marginctlJsonOnTestDatabase("demo")
          assert.isFalse(second.created)
          assert.strictEqual(second.workspace_id, first.workspace_id)
          assert.strictEqual(recordOf(second.run).id, run.id)
          assert.deepStrictEqual(second.users, first.users)
          const again = listOf(second.tokens).map(recordOf)
          assert.notStrictEqual(again[0]?.token, tokens[0]?.token)
          const sql = yield* SqlClient.SqlClient
          const counts = yield* sql<{ readonly workspaces: number; readonly items: number; readonly runs: number }>`
          SELECT (SELECT count(*) FROM workspaces WHERE name = 'Demo Store') AS workspaces,
                 (SELECT count(*) FROM catalog_items WHERE workspace_id = ${textOf(first.workspace_id)}) AS items,
                 (SELECT count(*) FROM runs WHERE workspace_id = ${textOf(first.workspace_id)}) AS runs`
          assert.deepStrictEqual(counts[0], { workspaces: 1, items: 200, runs: 1 })
        }),
      processTimeout
    )
  }
)
