import { createHash } from "node:crypto"
import { existsSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, layer } from "@effect/vitest"
import { scopes } from "@margin/core/access/Scope"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import {
  assertFailed,
  assertFailedJson,
  listOf,
  marginctl,
  marginctlJsonOnTestDatabase,
  marginctlOnTestDatabase,
  processTimeout,
  textOf
} from "./testing/Marginctl.ts"

/**
 * marginctl driven as a process, on a fresh migrated database of the test server (the embedded
 * PostgreSQL of the test run by default, DATABASE_URL's server when it is set), which every
 * marginctl reaches by DATABASE_URL. One file per area, each on its own database.
 */

/** The arguments of `token create` for a member of a workspace, with `extra` flags. */
const tokenCreate = (workspaceId: string, userId: string, scopes: string, ...extra: ReadonlyArray<string>) => [
  "token",
  "create",
  "--workspace",
  workspaceId,
  "--user",
  userId,
  "--scopes",
  scopes,
  ...extra
]

layer(TestDatabase.layer, { timeout: "5 minutes" })(
  "marginctl as a process: workspaces, users, members, tokens, bad invocations",
  (it) => {
    it.effect(
      "creates workspaces, users, members and tokens, storing only the token's hash",
      () =>
        Effect.gen(function* () {
          const workspace = yield* marginctlJsonOnTestDatabase(
            "workspace",
            "create",
            "--name",
            "Acme Goods",
            "--plan",
            "pro"
          )
          const workspaceId = textOf(workspace.id)
          assert.match(workspaceId, /^ws_/)
          assert.strictEqual(workspace.plan, "pro")
          assert.strictEqual(workspace.state, "trial")
          assert.isString(workspace.trial_ends_at)

          const plan = yield* marginctlJsonOnTestDatabase(
            "workspace",
            "set-plan",
            "--workspace",
            workspaceId,
            "--plan",
            "max"
          )
          assert.deepStrictEqual([plan.previous_plan, plan.plan], ["pro", "max"])
          const policy = yield* marginctlJsonOnTestDatabase(
            "workspace",
            "set-policy",
            "--workspace",
            workspaceId,
            "--target-margin",
            "0.4",
            "--rounding",
            "95",
            "--objective",
            "target_margin",
            "--max-premium-over-competitor",
            "0.05",
            "--min-expected-gain",
            "0.02"
          )
          assert.deepStrictEqual(policy.pricing_policy, {
            target_margin: 0.4,
            min_margin: 0.15,
            max_change: 0.1,
            rounding: "95",
            threshold: 0.01,
            objective: "target_margin",
            default_elasticity: -1.5,
            max_premium_over_competitor: 0.05,
            min_expected_gain: 0.02
          })
          assertFailed(
            yield* marginctlOnTestDatabase(
              "workspace",
              "set-policy",
              "--workspace",
              workspaceId,
              "--default-elasticity",
              "0.5"
            ),
            /^marginctl: invalid pricing policy: /m,
            2
          )
          assertFailed(
            yield* marginctlOnTestDatabase(
              "workspace",
              "set-policy",
              "--workspace",
              workspaceId,
              "--min-margin",
              "0.5"
            ),
            /^marginctl: invalid pricing policy: .*minMargin/m,
            2
          )
          assertFailed(
            yield* marginctlOnTestDatabase(
              "workspace",
              "set-policy",
              "--workspace",
              workspaceId,
              "--min-expected-gain",
              "1"
            ),
            /^marginctl: invalid pricing policy: .*minExpectedGain/m,
            2
          )
          assertFailed(
            yield* marginctlOnTestDatabase("workspace", "set-plan", "--workspace", "ws_nope", "--plan", "max"),
            /no workspace ws_nope/,
            3
          )

          const user = yield* marginctlJsonOnTestDatabase("user", "create", "--email", "ada@acme.example")
          const userId = textOf(user.id)
          assert.match(userId, /^usr_/)
          assert.isTrue(user.email_confirmed)
          assertFailed(
            yield* marginctlOnTestDatabase("user", "create", "--email", "ADA@acme.example"),
            /exists already: usr_/,
            4
          )
          assertFailed(
            yield* marginctlOnTestDatabase(...tokenCreate(workspaceId, userId, "all")),
            /is not a member of workspace/,
            1
          )
          const member = yield* marginctlJsonOnTestDatabase(
            "member",
            "add",
            "--workspace",
            workspaceId,
            "--user",
            userId,
            "--role",
            "approver"
          )
          assert.deepStrictEqual([member.role, member.previous_role], ["approver", null])

          const token = yield* marginctlJsonOnTestDatabase(
            ...tokenCreate(workspaceId, userId, "all", "--expires-in", "3600", "--name", "ci")
          )
          const secret = textOf(token.token)
          assert.match(secret, /^pck_[A-Za-z0-9_-]{43}$/)
          assert.deepStrictEqual(listOf(token.scopes), [...scopes])
          const sql = yield* SqlClient.SqlClient
          const stored = yield* sql<{
            readonly secretHash: string
          }>`SELECT secret_hash FROM api_tokens WHERE id = ${textOf(token.id)}`
          assert.deepStrictEqual(
            stored.map((row) => row.secretHash),
            [createHash("sha256").update(secret).digest("hex")]
          )
          const leaks = yield* sql`SELECT id FROM api_tokens WHERE row_to_json(api_tokens)::text LIKE ${`%${secret}%`}`
          assert.strictEqual(leaks.length, 0)

          assertFailed(
            yield* marginctlOnTestDatabase(...tokenCreate(workspaceId, userId, "runs:read,nope")),
            /unknown scope nope/,
            2
          )
          const limited = yield* marginctlJsonOnTestDatabase(
            ...tokenCreate(workspaceId, userId, "runs:read, workspace:read")
          )
          assert.deepStrictEqual(limited.scopes, ["runs:read", "workspace:read"])
          const revoked = yield* marginctlJsonOnTestDatabase("token", "revoke", "--token-id", textOf(token.id))
          assert.isFalse(revoked.already_revoked)
          assert.isTrue(
            (yield* marginctlJsonOnTestDatabase("token", "revoke", "--token-id", textOf(token.id))).already_revoked
          )
          assertFailed(
            yield* marginctlOnTestDatabase("token", "revoke", "--token-id", "tok_nope"),
            /no token tok_nope/,
            3
          )

          const deleted = yield* marginctlJsonOnTestDatabase("user", "delete", "--user", userId)
          assert.isFalse(deleted.already_deleted)
          assert.isTrue((yield* marginctlJsonOnTestDatabase("user", "delete", "--user", userId)).already_deleted)

          const audit = yield* sql<{ readonly action: string; readonly actor: string }>`
          SELECT action, actor FROM audit_events WHERE workspace_id = ${workspaceId} ORDER BY at, id`
          assert.deepStrictEqual(
            audit.map((event) => event.action),
            [
              "workspace.create",
              "workspace.set_plan",
              "workspace.set_policy",
              "member.add",
              "token.create",
              "token.create",
              "token.revoke",
              "user.delete"
            ]
          )
          assert.isTrue(audit.every((event) => event.actor === "system:marginctl"))
        }),
      processTimeout
    )

    it.effect(
      "refuses bad invocations on stderr with a non-zero exit and nothing on stdout",
      () =>
        Effect.gen(function* () {
          // Help of a group never opens the database: it works, and leaves no data directory behind.
          const untouched = join(mkdtempSync(join(tmpdir(), "marginctl-")), "data")
          const help = yield* marginctl(["workspace"], { DATA_DIR: untouched })
          assert.strictEqual(help.code, 0, help.stderr)
          assert.match(help.stdout, /set-policy/)
          assert.isFalse(existsSync(untouched))
          assertFailed(yield* marginctlOnTestDatabase("frobnicate"), /Unknown subcommand "frobnicate"/, 2)
          assertFailed(yield* marginctlOnTestDatabase("workspace", "create"), /Missing required flag: --name/, 2)
          assertFailed(
            yield* marginctlOnTestDatabase("workspace", "create", "--name", "X", "--plan", "gold"),
            /Invalid value for flag --plan/,
            2
          )
          assertFailed(yield* marginctlOnTestDatabase("user", "create", "--email", "not-an-address"), /e-mail/, 2)
          assertFailedJson(
            yield* marginctl(["migrate", "--json"], { DATABASE_URL: "postgres://postgres@127.0.0.1:1/nowhere" }),
            /^cannot (reach|use) PostgreSQL at 127\.0\.0\.1:1\/nowhere/,
            5
          )
          assertFailed(
            yield* marginctl(["migrate"], { DATABASE_URL: "mysql://x" }),
            /DATABASE_URL has the scheme "mysql"/,
            2
          )
        }),
      processTimeout
    )
  }
)
