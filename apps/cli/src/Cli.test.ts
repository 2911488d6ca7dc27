import { createHash } from "node:crypto"
import { existsSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { NodeServices } from "@effect/platform-node"
import { assert, layer } from "@effect/vitest"
import { SessionVerifier } from "@margin/edge/SessionJwt"
import * as PgIdentityKeyStore from "@margin/postgres/PgIdentityKeyStore"
import { TestDatabase } from "@margin/postgres/TestDatabase"
import { ConfigProvider, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { assertFailed, jsonOf, marginctl } from "./testing/Marginctl.ts"

/**
 * marginctl driven as a process, on a fresh migrated database: PGlite by default (this test
 * process owns it and serves it on its socket, so every marginctl attaches to it as it would to
 * a running service), PostgreSQL when DATABASE_URL is set.
 */

const environment = Effect.gen(function* () {
  const database = yield* TestDatabase
  if (database.backend === "pglite") return { DATA_DIR: database.name }
  const url = new URL(process.env.DATABASE_URL ?? "")
  url.pathname = `/${database.name}`
  return { DATABASE_URL: url.toString() }
})

const run = (...args: ReadonlyArray<string>) => Effect.flatMap(environment, (env) => marginctl(args, env))
const runJson = (...args: ReadonlyArray<string>) => Effect.map(run(...args, "--json"), jsonOf)

const text = (value: unknown): string =>
  typeof value === "string" ? value : assert.fail(`expected a string: ${value}`)
const record = (value: unknown): Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value))
    : assert.fail(`expected an object: ${JSON.stringify(value)}`)
const list = (value: unknown): ReadonlyArray<unknown> =>
  Array.isArray(value) ? value : assert.fail(`expected an array: ${JSON.stringify(value)}`)

const tempFile = (name: string, content: string): string => {
  const path = join(mkdtempSync(join(tmpdir(), "marginctl-")), name)
  writeFileSync(path, content)
  return path
}

// Several processes per test, each a few seconds on a loaded machine.
const slow = { timeout: 300_000 }

layer(TestDatabase.layer, { timeout: "5 minutes" })("marginctl as a process", (it) => {
  it.effect(
    "creates workspaces, users, members and tokens, storing only the token's hash",
    () =>
      Effect.gen(function* () {
        const workspace = yield* runJson("workspace", "create", "--name", "Acme Goods", "--plan", "pro")
        const workspaceId = text(workspace.id)
        assert.match(workspaceId, /^ws_/)
        assert.strictEqual(workspace.plan, "pro")
        assert.strictEqual(workspace.state, "trial")
        assert.isString(workspace.trial_ends_at)

        const plan = yield* runJson("workspace", "set-plan", "--workspace", workspaceId, "--plan", "max")
        assert.deepStrictEqual([plan.previous_plan, plan.plan], ["pro", "max"])
        const policy = yield* runJson(
          "workspace",
          "set-policy",
          "--workspace",
          workspaceId,
          "--target-margin",
          "0.4",
          "--rounding",
          "95"
        )
        assert.deepStrictEqual(policy.pricing_policy, {
          target_margin: 0.4,
          min_margin: 0.15,
          max_change: 0.1,
          rounding: "95",
          threshold: 0.01
        })
        assertFailed(
          yield* run("workspace", "set-policy", "--workspace", workspaceId, "--min-margin", "0.5"),
          /^marginctl: invalid pricing policy: .*minMargin/m
        )
        assertFailed(
          yield* run("workspace", "set-plan", "--workspace", "ws_nope", "--plan", "max"),
          /no workspace ws_nope/
        )

        const user = yield* runJson("user", "create", "--email", "ada@acme.example")
        const userId = text(user.id)
        assert.match(userId, /^usr_/)
        assert.isTrue(user.email_confirmed)
        assertFailed(yield* run("user", "create", "--email", "ADA@acme.example"), /exists already: usr_/)
        assertFailed(
          yield* run("token", "create", "--workspace", workspaceId, "--user", userId, "--scopes", "all"),
          /is not a member of workspace/
        )
        const member = yield* runJson(
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

        const token = yield* runJson(
          "token",
          "create",
          "--workspace",
          workspaceId,
          "--user",
          userId,
          "--scopes",
          "all",
          "--expires-in",
          "3600",
          "--name",
          "ci"
        )
        const secret = text(token.token)
        assert.match(secret, /^pck_[A-Za-z0-9_-]{43}$/)
        assert.strictEqual(list(token.scopes).length, 10)
        const sql = yield* SqlClient.SqlClient
        const stored = yield* sql<{
          readonly secretHash: string
        }>`SELECT secret_hash FROM api_tokens WHERE id = ${text(token.id)}`
        assert.deepStrictEqual(
          stored.map((row) => row.secretHash),
          [createHash("sha256").update(secret).digest("hex")]
        )
        const leaks = yield* sql`SELECT id FROM api_tokens WHERE row_to_json(api_tokens)::text LIKE ${`%${secret}%`}`
        assert.strictEqual(leaks.length, 0)

        assertFailed(
          yield* run("token", "create", "--workspace", workspaceId, "--user", userId, "--scopes", "runs:read,nope"),
          /unknown scope nope/
        )
        const limited = yield* runJson(
          "token",
          "create",
          "--workspace",
          workspaceId,
          "--user",
          userId,
          "--scopes",
          "runs:read, workspace:read"
        )
        assert.deepStrictEqual(limited.scopes, ["runs:read", "workspace:read"])
        const revoked = yield* runJson("token", "revoke", "--token-id", text(token.id))
        assert.isFalse(revoked.already_revoked)
        assert.isTrue((yield* runJson("token", "revoke", "--token-id", text(token.id))).already_revoked)
        assertFailed(yield* run("token", "revoke", "--token-id", "tok_nope"), /no token tok_nope/)

        const deleted = yield* runJson("user", "delete", "--user", userId)
        assert.isFalse(deleted.already_deleted)
        assert.isTrue((yield* runJson("user", "delete", "--user", userId)).already_deleted)

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
    slow
  )

  it.effect(
    "imports a catalog by sku, reporting each bad line while the good ones import",
    () =>
      Effect.gen(function* () {
        const workspaceId = text((yield* runJson("workspace", "create", "--name", "Catalog Co", "--plan", "max")).id)
        const csv = tempFile(
          "items.csv",
          [
            "sku,title,tags,currency,price,cost,compare_at_price,min_price,max_price,inventory,units_sold_30d",
            "A-1,Blue mug,kitchen;mugs,USD,12.99,5.50,,,,10,3",
            "A-2,,kitchen,USD,3.00,,,,,,",
            "A-3,Plate,kitchen,USD,4.50,2,,,,,",
            "A-4,Bowl,kitchen,USD,abc,,,,,,",
            "",
            'A-5,"Jug, large",,EUR,20,,,,,,'
          ].join("\n")
        )
        const first = yield* runJson("catalog", "import", "--workspace", workspaceId, "--file", csv)
        assert.deepStrictEqual([first.imported, first.updated, first.rejected_total], [3, 0, 2])
        assert.deepStrictEqual(first.rejected, [
          { line: 3, error: "title is required" },
          { line: 5, error: 'price: "abc" is not an amount: use digits with an optional decimal point, like 12.34' }
        ])
        assert.strictEqual(first.catalog_items, 3)

        const jsonl = tempFile(
          "items.jsonl",
          [
            JSON.stringify({ sku: "A-1", title: "Blue mug", currency: "USD", price: "13.49", cost: 5.5 }),
            JSON.stringify({ sku: "B-1", title: "Teapot", tags: ["kitchen"], currency: "USD", price: 30 }),
            "{not json"
          ].join("\n")
        )
        const second = yield* runJson("catalog", "import", "--workspace", workspaceId, "--file", jsonl)
        assert.deepStrictEqual([second.imported, second.updated], [1, 1])
        assert.deepStrictEqual(second.rejected, [{ line: 3, error: "not valid JSON" }])
        const sql = yield* SqlClient.SqlClient
        const prices = yield* sql<{ readonly price: number }>`
          SELECT price FROM catalog_items WHERE workspace_id = ${workspaceId} AND sku = 'A-1'`
        assert.deepStrictEqual(
          prices.map((row) => row.price),
          [1349]
        )

        assertFailed(
          yield* run("catalog", "import", "--workspace", workspaceId, "--file", tempFile("items.xlsx", "x")),
          /name it \.csv or \.jsonl/
        )
        assertFailed(
          yield* run("catalog", "import", "--workspace", workspaceId, "--file", tempFile("bad.csv", "sku,name\n")),
          /line 1: header: unknown column "name"/
        )

        const connected = yield* runJson("store", "connect", "--workspace", workspaceId, "--platform", "sandbox")
        assert.deepStrictEqual(
          [connected.platform, connected.status, connected.sandbox_variants],
          ["sandbox", "connected", 4]
        )
        const variants = yield* sql<{ readonly variantRef: string; readonly price: number }>`
          SELECT variant_ref, price FROM sandbox_store_variants WHERE workspace_id = ${workspaceId} ORDER BY variant_ref`
        assert.deepStrictEqual(
          variants.map((row) => [row.variantRef, row.price]),
          [
            ["A-1", 1349],
            ["A-3", 450],
            ["A-5", 2000],
            ["B-1", 3000]
          ]
        )
        const writes = yield* runJson("store", "writes", "--workspace", workspaceId)
        assert.deepStrictEqual(writes.writes, [])
        assertFailed(
          yield* run("store", "connect", "--workspace", workspaceId, "--platform", "shopify"),
          /needs --shop DOMAIN and --access-token/
        )
        assert.isTrue((yield* runJson("store", "disconnect", "--workspace", workspaceId)).disconnected)
      }),
    slow
  )

  it.effect(
    "signs session tokens that the service's verifier accepts, and runs support and deletion workflows",
    () =>
      Effect.gen(function* () {
        const workspaceId = text((yield* runJson("workspace", "create", "--name", "Support Co")).id)
        const userId = text((yield* runJson("user", "create", "--email", "grace@support.example")).id)
        const session = yield* runJson("session-token", "--user", userId, "--expires-in", "600")
        const verified = yield* SessionVerifier.use((verifier) => verifier.verify(text(session.token))).pipe(
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
        assertFailed(yield* run("session-token", "--user", "usr_nope"), /no user usr_nope/)

        const opened = yield* runJson(
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
          yield* run("support", "open", "--workspace", workspaceId, "--admin-email", "other@margin.example"),
          /is open on ws_.* close it first/
        )
        assert.strictEqual((yield* runJson("support", "close", "--workspace", workspaceId)).closed, 1)

        const requested = yield* runJson("deletion", "request", "--user", userId, "--effective-in-days", "7")
        assert.deepStrictEqual([requested.state, requested.already_requested], ["pending", false])
        assert.isTrue((yield* runJson("deletion", "request", "--user", userId)).already_requested)
        assert.strictEqual((yield* runJson("deletion", "block", "--user", userId)).state, "blocked")
        const cancelled = yield* runJson("deletion", "cancel", "--user", userId)
        assert.deepStrictEqual([cancelled.previous_state, cancelled.state], ["blocked", "cancelled"])
        assertFailed(yield* run("deletion", "cancel", "--user", userId), /has no pending or blocked deletion request/)
      }),
    slow
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
        assertFailed(yield* run("frobnicate"), /Unknown subcommand "frobnicate"/)
        assertFailed(yield* run("workspace", "create"), /Missing required flag: --name/)
        assertFailed(
          yield* run("workspace", "create", "--name", "X", "--plan", "gold"),
          /Invalid value for flag --plan/
        )
        assertFailed(yield* run("user", "create", "--email", "not-an-address"), /e-mail/)
        assertFailed(
          yield* marginctl(["migrate", "--json"], { DATABASE_URL: "postgres://postgres@127.0.0.1:1/nowhere" }),
          /^marginctl: cannot (reach|use) PostgreSQL at 127\.0\.0\.1:1\/nowhere/m
        )
        assertFailed(
          yield* marginctl(["migrate"], { DATABASE_URL: "mysql://x" }),
          /DATABASE_URL has the scheme "mysql"/
        )
      }),
    slow
  )

  it.effect(
    "seeds the demo once; a second demo finds it and only issues fresh tokens",
    () =>
      Effect.gen(function* () {
        const first = yield* runJson("demo")
        assert.isTrue(first.created)
        assert.strictEqual(first.plan, "max")
        assert.strictEqual(first.catalog_items, 200)
        const run = record(first.run)
        assert.strictEqual(run.status, "succeeded")
        assert.isAbove(Number(run.recommendations), 0)
        assert.isAbove(Number(run.alerts), 0)
        const tokens = list(first.tokens).map(record)
        assert.deepStrictEqual(
          tokens.map((token) => [token.role, list(token.scopes).length]),
          [
            ["owner", 10],
            ["approver", 10]
          ]
        )
        assert.deepStrictEqual(record(first.store).sandbox_variants, 200)

        const second = yield* runJson("demo")
        assert.isFalse(second.created)
        assert.strictEqual(second.workspace_id, first.workspace_id)
        assert.strictEqual(record(second.run).id, run.id)
        assert.deepStrictEqual(second.users, first.users)
        const again = list(second.tokens).map(record)
        assert.notStrictEqual(again[0]?.token, tokens[0]?.token)
        const sql = yield* SqlClient.SqlClient
        const counts = yield* sql<{ readonly workspaces: number; readonly items: number; readonly runs: number }>`
          SELECT (SELECT count(*) FROM workspaces WHERE name = 'Demo Store') AS workspaces,
                 (SELECT count(*) FROM catalog_items WHERE workspace_id = ${text(first.workspace_id)}) AS items,
                 (SELECT count(*) FROM runs WHERE workspace_id = ${text(first.workspace_id)}) AS runs`
        assert.deepStrictEqual(counts[0], { workspaces: 1, items: 200, runs: 1 })
      }),
    slow
  )
})
