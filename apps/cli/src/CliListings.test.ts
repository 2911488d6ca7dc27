import { assert, layer } from "@effect/vitest"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { FakeShopify, fakeShop } from "@margin/stores/testing/FakeShopify"
import { Effect, Layer } from "effect"
import {
  assertFailed,
  assertFailedJson,
  jsonOf,
  listOf,
  marginctl,
  marginctlJsonListOnTestDatabase,
  marginctlJsonOnTestDatabase,
  marginctlOnTestDatabase,
  processTimeout,
  recordOf,
  testDatabaseEnvironment,
  textOf
} from "./testing/Marginctl.ts"

/**
 * marginctl's list and show commands as processes, on a fresh migrated database of the test server
 * (docs/cli.md, "Lists and shows"): a table or one JSON array, pages by --limit and --after, and
 * exit status 3 with the one-line error for an id that names nothing.
 */

const cli = marginctlOnTestDatabase
const cliJson = marginctlJsonOnTestDatabase
const cliList = marginctlJsonListOnTestDatabase

/** The `id`s (or another key) of a JSON list's rows. */
const keysOf = (rows: ReadonlyArray<Readonly<Record<string, unknown>>>, key = "id") =>
  rows.map((row) => textOf(row[key]))

layer(Layer.mergeAll(TestDatabase.layer, FakeShopify.layer({ accessToken: "shpat_listing_never_printed" })), {
  timeout: "5 minutes"
})("marginctl list and show, as processes", (it) => {
  it.effect(
    "workspaces, users, members and tokens: pages newest first, shows, unknown ids exit 3, never a secret",
    () =>
      Effect.gen(function* () {
        const workspaceIds: Array<string> = []
        for (const name of ["List One", "List Two", "List Three"]) {
          workspaceIds.push(textOf((yield* cliJson("workspace", "create", "--name", name, "--plan", "pro")).id))
        }
        const [workspaceId = "", otherId = ""] = workspaceIds
        const newestFirst = [...workspaceIds].reverse()

        const firstPage = yield* cliList("workspace", "list", "--limit", "2")
        assert.deepStrictEqual(keysOf(firstPage), newestFirst.slice(0, 2))
        assert.deepStrictEqual(Object.keys(firstPage[0] ?? {}).sort(), [
          "created_at",
          "id",
          "name",
          "plan",
          "state",
          "trial_ends_at"
        ])
        const lastId = keysOf(firstPage)[1] ?? ""
        assert.deepStrictEqual(
          keysOf(yield* cliList("workspace", "list", "--limit", "2", "--after", lastId)),
          newestFirst.slice(2)
        )
        const table = yield* cli("workspace", "list", "--limit", "2")
        assert.strictEqual(table.code, 0, table.stderr)
        const lines = table.stdout.trimEnd().split("\n")
        assert.match(lines[0] ?? "", /^ID +NAME +PLAN +STATE +TRIAL ENDS +CREATED$/)
        assert.match(lines[1] ?? "", new RegExp(`^${newestFirst[0]} +List Three +pro +trial `))
        assert.strictEqual(lines[3], `More: run it again with --after ${lastId}`)
        assertFailed(yield* cli("workspace", "list", "--limit", "0"), /--limit must be 1 to 1000/, 2)
        assertFailed(yield* cli("workspace", "list", "--after", "ws_gone"), /^marginctl: no workspace ws_gone$/m, 3)

        const shown = yield* cliJson("workspace", "show", workspaceId)
        assert.strictEqual(shown.name, "List One")
        assert.strictEqual(shown.plan, "pro")
        assert.strictEqual(recordOf(shown.pricing_policy).objective, "profit")
        const shownText = yield* cli("workspace", "show", workspaceId)
        assert.match(shownText.stdout, new RegExp(`^id: +${workspaceId}\nname: +List One\n`))
        assertFailed(yield* cli("workspace", "show", "ws_nope"), /^marginctl: no workspace ws_nope$/m, 3)
        assertFailedJson(yield* cli("workspace", "show", "ws_nope", "--json"), /^no workspace ws_nope$/, 3)
        assertFailed(yield* cli("workspace", "show", "nope"), /expected an id like ws_/, 2)

        const ada = textOf((yield* cliJson("user", "create", "--email", "ada@list.example")).id)
        const bob = textOf((yield* cliJson("user", "create", "--email", "bob@list.example", "--unconfirmed")).id)
        yield* cliJson("member", "add", "--workspace", workspaceId, "--user", ada, "--role", "owner")
        yield* cliJson("member", "add", "--workspace", workspaceId, "--user", bob, "--role", "viewer")
        yield* cliJson("member", "add", "--workspace", otherId, "--user", ada, "--role", "analyst")
        yield* cliJson("user", "delete", "--user", bob)
        const users = yield* cliList("user", "list")
        assert.deepStrictEqual(keysOf(users), [bob, ada])
        assert.isString(users[0]?.deleted_at, "deleted users are listed, with the instant")
        assert.deepStrictEqual(keysOf(yield* cliList("user", "list", "--limit", "1", "--after", bob)), [ada])

        const byEmail = yield* cliJson("user", "show", "ADA@list.example")
        assert.strictEqual(byEmail.id, ada)
        assert.deepStrictEqual(
          listOf(byEmail.memberships),
          [
            { workspace_id: workspaceId, role: "owner" },
            { workspace_id: otherId, role: "analyst" }
          ].sort((a, b) => (a.workspace_id < b.workspace_id ? -1 : 1))
        )
        assert.strictEqual((yield* cliJson("user", "show", bob)).email, "bob@list.example")
        assertFailed(yield* cli("user", "show", "nobody@list.example"), /no user with e-mail nobody@list\.example/, 3)
        assertFailedJson(yield* cli("user", "show", "usr_nope", "--json"), /^no user usr_nope$/, 3)
        assertFailed(yield* cli("user", "show", "ada"), /expected a user id \(usr_…\) or an e-mail address/, 2)

        const byUserId = [ada, bob].sort()
        const members = yield* cliList("member", "list", "--workspace", workspaceId)
        assert.deepStrictEqual(keysOf(members, "user_id"), byUserId)
        const adaRow = members.find((member) => member.user_id === ada)
        assert.deepStrictEqual(adaRow, {
          workspace_id: workspaceId,
          user_id: ada,
          email: "ada@list.example",
          role: "owner",
          user_deleted: false
        })
        const firstMember = byUserId[0] ?? ""
        const memberPage = yield* cli("member", "list", "--workspace", workspaceId, "--limit", "1")
        assert.match(memberPage.stdout, new RegExp(`More: run it again with --after ${firstMember}\n$`))
        assert.deepStrictEqual(
          keysOf(yield* cliList("member", "list", "--workspace", workspaceId, "--after", firstMember), "user_id"),
          byUserId.slice(1)
        )
        assert.strictEqual(
          (yield* cliJson("member", "show", "--workspace", workspaceId, "--user", bob)).user_deleted,
          true
        )
        assertFailed(
          yield* cli("member", "show", "--workspace", otherId, "--user", bob),
          new RegExp(`^marginctl: ${bob} is not a member of ${otherId}$`, "m"),
          3
        )
        assertFailed(yield* cli("member", "list", "--workspace", "ws_nope"), /no workspace ws_nope/, 3)

        const created = yield* cliJson(
          "token",
          "create",
          "--workspace",
          workspaceId,
          "--user",
          ada,
          "--scopes",
          "all",
          "--name",
          "first"
        )
        const secret = textOf(created.token)
        const revokedId = textOf(created.id)
        yield* cliJson("token", "revoke", "--token-id", revokedId)
        const liveId = textOf(
          (yield* cliJson(
            "token",
            "create",
            "--workspace",
            workspaceId,
            "--user",
            ada,
            "--scopes",
            "runs:read",
            "--expires-in",
            "3600",
            "--name",
            "second"
          )).id
        )
        const tokens = yield* cli("token", "list", "--workspace", workspaceId, "--json")
        assert.notInclude(tokens.stdout, secret, "the secret is never printed again")
        assert.notInclude(tokens.stdout, "pck_")
        const tokenRows = yield* cliList("token", "list", "--workspace", workspaceId)
        assert.deepStrictEqual(keysOf(tokenRows), [liveId, revokedId])
        assert.deepStrictEqual(
          tokenRows.map((token) => [token.name, token.state, token.user_id, token.workspace_id]),
          [
            ["second", "active", ada, workspaceId],
            ["first", "revoked", ada, workspaceId]
          ]
        )
        assert.deepStrictEqual(tokenRows[0]?.scopes, ["runs:read"])
        assert.isString(tokenRows[0]?.expires_at)
        assert.deepStrictEqual(
          keysOf(yield* cliList("token", "list", "--workspace", workspaceId, "--limit", "1", "--after", liveId)),
          [revokedId]
        )
        assertFailed(
          yield* cli("token", "list", "--workspace", otherId, "--after", liveId),
          new RegExp(`no token ${liveId} in ${otherId}`),
          3
        )
        assert.deepStrictEqual(yield* cliList("token", "list", "--workspace", workspaceId, "--user", bob), [])
        const tokenTable = yield* cli("token", "list", "--workspace", workspaceId, "--user", bob)
        assert.strictEqual(tokenTable.stdout, `${workspaceId} has no tokens issued by ${bob}\n`)
        const shownToken = yield* cli("token", "show", revokedId, "--json")
        assert.notInclude(shownToken.stdout, secret)
        const revoked = yield* cliJson("token", "show", revokedId)
        assert.strictEqual(revoked.state, "revoked")
        assert.isString(revoked.revoked_at)
        assert.isNotOk("token" in revoked, "no secret field")
        assertFailed(yield* cli("token", "show", "tok_nope"), /^marginctl: no token tok_nope$/m, 3)
        assertFailedJson(yield* cli("token", "show", "tok_nope", "--json"), /^no token tok_nope$/, 3)
      }),
    processTimeout
  )

  it.effect(
    "runs and store connections: pages, filters, shows; never the store's credentials",
    () =>
      Effect.gen(function* () {
        const workspaceId = textOf((yield* cliJson("workspace", "create", "--name", "Runs and stores")).id)
        const otherId = textOf((yield* cliJson("workspace", "create", "--name", "Bystander")).id)
        const runIds: Array<string> = []
        for (let n = 0; n < 3; n++)
          runIds.push(textOf((yield* cliJson("run", "trigger", "--workspace", workspaceId)).id))
        const newestFirst = [...runIds].reverse()

        const runs = yield* cliList("run", "list", "--workspace", workspaceId, "--limit", "2")
        assert.deepStrictEqual(keysOf(runs), newestFirst.slice(0, 2))
        assert.strictEqual(runs[0]?.workspace_id, workspaceId)
        assert.strictEqual(runs[0]?.status, "queued")
        assert.deepStrictEqual(
          keysOf(yield* cliList("run", "list", "--workspace", workspaceId, "--after", newestFirst[1] ?? "")),
          newestFirst.slice(2)
        )
        assert.deepStrictEqual(
          keysOf(yield* cliList("run", "list", "--workspace", workspaceId, "--status", "queued")),
          newestFirst
        )
        assert.deepStrictEqual(yield* cliList("run", "list", "--workspace", workspaceId, "--status", "succeeded"), [])
        assert.deepStrictEqual(yield* cliList("run", "list", "--workspace", otherId), [])
        assertFailed(
          yield* cli("run", "list", "--workspace", otherId, "--after", runIds[0] ?? ""),
          new RegExp(`no run ${runIds[0]} in ${otherId}`),
          3
        )
        assertFailed(yield* cli("run", "list", "--workspace", workspaceId, "--status", "done"), /--status/, 2)

        const shownRun = yield* cliJson("run", "show", runIds[0] ?? "")
        assert.deepStrictEqual(
          [shownRun.id, shownRun.workspace_id, shownRun.status],
          [runIds[0], workspaceId, "queued"]
        )
        assertFailed(yield* cli("run", "show", "run_nope"), /^marginctl: no run run_nope$/m, 3)
        assertFailedJson(yield* cli("run", "show", "run_nope", "--json"), /^no run run_nope$/, 3)

        yield* cliJson("store", "connect", "--workspace", workspaceId, "--platform", "sandbox")
        // The connection is checked with one read: against the fake Shopify, with its token.
        const fake = yield* FakeShopify
        const env = { ...(yield* testDatabaseEnvironment), SHOPIFY_BASE_URL: fake.url }
        const accessToken = fake.options.accessToken
        jsonOf(
          yield* marginctl(
            [
              "store",
              "connect",
              "--workspace",
              otherId,
              "--platform",
              "shopify",
              "--shop",
              fakeShop,
              "--access-token",
              accessToken,
              "--json"
            ],
            env
          )
        )
        const stores = yield* cli("store", "list", "--json")
        assert.notInclude(stores.stdout, accessToken)
        const connections = yield* cliList("store", "list")
        assert.deepStrictEqual(keysOf(connections, "workspace_id"), [otherId, workspaceId])
        assert.deepStrictEqual(connections[0], {
          workspace_id: otherId,
          platform: "shopify",
          shop: fakeShop,
          status: "connected",
          connected_at: connections[0]?.connected_at ?? null
        })
        assert.deepStrictEqual(keysOf(yield* cliList("store", "list", "--after", otherId), "workspace_id"), [
          workspaceId
        ])
        yield* cliJson("store", "disconnect", "--workspace", otherId)
        assert.deepStrictEqual(keysOf(yield* cliList("store", "list", "--status", "connected"), "workspace_id"), [
          workspaceId
        ])
        assert.deepStrictEqual(keysOf(yield* cliList("store", "list", "--status", "disconnected"), "workspace_id"), [
          otherId
        ])
        const shownStore = yield* cli("store", "show", "--workspace", otherId)
        assert.strictEqual(shownStore.code, 0, shownStore.stderr)
        assert.match(shownStore.stdout, /^status: +disconnected$/m)
        assert.notInclude(shownStore.stdout, accessToken)

        const bare = textOf((yield* cliJson("workspace", "create", "--name", "No store")).id)
        assertFailed(
          yield* cli("store", "show", "--workspace", bare),
          new RegExp(`^marginctl: no store connection of ${bare}$`, "m"),
          3
        )
        assertFailedJson(yield* cli("store", "show", "--workspace", "ws_nope", "--json"), /^no workspace ws_nope$/, 3)
      }),
    processTimeout
  )
})
