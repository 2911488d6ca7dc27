import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, layer } from "@effect/vitest"
import { seedMember, seedNoticeAudience } from "@margin/core/testing/NoticeAudience"
import { seedUser } from "@margin/core/testing/Seed"
import * as TestSmtpServer from "@margin/mail/testing/TestSmtpServer"
import * as PgTestAdapters from "@margin/postgres/testing/PgTestAdapters"
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import {
  assertFailed,
  assertFailedJson,
  jsonOf,
  listOf,
  marginctl,
  marginctlWithTestDeprecations,
  processTimeout,
  recordOf,
  testDatabaseEnvironment,
  textOf
} from "./testing/Marginctl.ts"

/**
 * `marginctl deprecation notify` as a process (docs/contract.md, "Versioning and deprecation"), with the tests' deprecated
 * operations (testing/TestDeprecations.ts: listRuns, getRun, getAlert) and a real SMTP server in this
 * process; production deprecates nothing. Every workspace of the database is notified, so the
 * tests of this file share one world and run in order.
 */

const NoticeRow = Schema.Struct({
  operation: Schema.String,
  workspace_id: Schema.String,
  user_id: Schema.String,
  email: Schema.String,
  transport: Schema.String
})

const noticeRows = (operation: string) =>
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const rows = yield* sql`
      SELECT operation, workspace_id, user_id, email, transport FROM deprecation_notices
      WHERE operation = ${operation} ORDER BY workspace_id, user_id`.pipe(Effect.orDie)
    return yield* Schema.decodeUnknownEffect(Schema.Array(NoticeRow))(rows).pipe(Effect.orDie)
  })

/** [workspace, user] pairs of a --json output list. */
const pairsOf = (value: unknown) =>
  listOf(value).map((entry) => [textOf(recordOf(entry).workspace_id), textOf(recordOf(entry).user_id)])

const sorted = (pairs: ReadonlyArray<ReadonlyArray<string>>) => [...pairs].map((p) => p.join("/")).sort()

/** The world every test of this file sees (every workspace of its database): who is told, and who not. */
class World extends Context.Service<World, Effect.Success<typeof seedNoticeAudience>>()("test/CliDeprecation/World") {}

layer(Layer.effect(World, seedNoticeAudience).pipe(Layer.provideMerge(PgTestAdapters.layer)), { timeout: "5 minutes" })(
  "marginctl deprecation notify",
  (it) => {
    it.effect(
      "e-mails each owner and admin of every workspace over SMTP once; a refused one is retried by the next run, with a new admin",
      () =>
        Effect.gen(function* () {
          const { shopA, shopB, owner, admin, unconfirmedAdmin, adminB } = yield* World
          const server = yield* TestSmtpServer.make()
          server.refuse(adminB.email)
          const env = {
            ...(yield* testDatabaseEnvironment),
            SMTP_URL: server.url,
            MAIL_FROM: "Margin Ops <ops@margin.example>"
          }
          const notify = marginctlWithTestDeprecations(
            ["deprecation", "notify", "--operation", "listRuns", "--json"],
            env
          )

          const first = yield* notify
          // The mail server could not take them all: unavailable (5), said as JSON under --json.
          assert.strictEqual(first.code, 5, first.stderr)
          assert.match(
            first.stderr,
            /"message":"1 of 5 notices could not be sent; run the command again to retry them"/
          )
          const report = jsonOf({ ...first, code: 0 })
          assert.strictEqual(report.operation, "listRuns")
          assert.strictEqual(report.notice, "2026-01-15")
          assert.strictEqual(report.sunset, "2030-07-15")
          assert.strictEqual(report.transport, "smtp")
          assert.strictEqual(report.already_notified, 0)
          const told = [
            [shopA.id, owner.id],
            [shopA.id, admin.id],
            [shopA.id, unconfirmedAdmin.id],
            [shopB.id, owner.id]
          ]
          assert.deepStrictEqual(sorted(pairsOf(report.notified)), sorted(told))
          assert.deepStrictEqual(pairsOf(report.failed), [[shopB.id, adminB.id]])
          assert.match(textOf(recordOf(listOf(report.failed)[0]).reason), /550/)

          // One message per (workspace, user): the owner of both workspaces gets two.
          const received = server.received()
          assert.deepStrictEqual(
            received.map((mail) => mail.to.join(",")).sort(),
            [owner.email, owner.email, admin.email, unconfirmedAdmin.email].sort()
          )
          assert.isTrue(received.every((mail) => mail.from === "ops@margin.example"))
          const toAdmin = received.find((mail) => mail.to[0] === admin.email)?.raw ?? ""
          assert.strictEqual(
            TestSmtpServer.headerOf(toAdmin, "Subject"),
            "margin-service API: listRuns is deprecated and may be removed after 2030-07-15"
          )
          const text = TestSmtpServer.textOf(toAdmin)
          assert.include(text, `as an admin of the workspace "Shop A" (${shopA.id})`)
          assert.include(text, "The v1 API operation listRuns is deprecated as of 2026-01-15.")
          assert.include(text, "It keeps working until at least 2030-07-15")
          assert.include(text, "Use this instead: GET /api/v1/runs/{run_id}")
          assert.include(text, "Details: https://docs.example/deprecations/list-runs")

          const rows = yield* noticeRows("listRuns")
          assert.deepStrictEqual(sorted(rows.map((row) => [row.workspace_id, row.user_id])), sorted(told))
          assert.isTrue(rows.every((row) => row.transport === "smtp"))
          assert.strictEqual(rows.find((row) => row.user_id === admin.id)?.email, admin.email)

          // The server takes the refused address now, and shop B got a new admin: only they are told.
          server.accept(adminB.email)
          const newAdmin = yield* seedUser()
          yield* seedMember(shopB.id, newAdmin.id, "admin")
          const second = jsonOf(yield* notify)
          assert.deepStrictEqual(
            sorted(pairsOf(second.notified)),
            sorted([
              [shopB.id, adminB.id],
              [shopB.id, newAdmin.id]
            ])
          )
          assert.strictEqual(second.already_notified, 4)
          assert.deepStrictEqual(second.failed, [])
          assert.strictEqual(server.received().length, 6)

          const third = jsonOf(yield* notify)
          assert.deepStrictEqual(third.notified, [])
          assert.strictEqual(third.already_notified, 6)
          assert.strictEqual(server.received().length, 6)
          assert.strictEqual((yield* noticeRows("listRuns")).length, 6)
        }).pipe(Effect.scoped),
      processTimeout
    )

    it.effect(
      "without SMTP_URL, writes the notices as .eml files under <DATA_DIR>/outbox/deprecations, also on PostgreSQL",
      () =>
        Effect.gen(function* () {
          const { shopA, owner } = yield* World
          const database = yield* testDatabaseEnvironment
          // With DATABASE_URL, DATA_DIR only says where the outbox is.
          const dataDir = yield* Effect.acquireRelease(
            Effect.sync(() => mkdtempSync(join(tmpdir(), "marginctl-outbox-"))),
            (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
          )
          const outcome = yield* marginctlWithTestDeprecations(["deprecation", "notify", "--operation", "getRun"], {
            ...database,
            DATA_DIR: dataDir
          })
          assert.strictEqual(outcome.code, 0, outcome.stderr)
          const outbox = join(dataDir, "outbox", "deprecations")
          assert.include(outcome.stdout, "getRun: deprecated on 2026-02-01, sunset 2030-08-31.")
          assert.include(outcome.stdout, `Wrote 6 notices as .eml files in ${outbox}: send them from there.`)
          const files = readdirSync(outbox).sort()
          const rows = yield* noticeRows("getRun")
          assert.deepStrictEqual(
            files,
            rows.map((row) => `deprecation.getRun.${row.workspace_id}.${row.user_id}.eml`).sort()
          )
          assert.isTrue(rows.every((row) => row.transport === "eml"))
          const raw = readFileSync(join(outbox, `deprecation.getRun.${shopA.id}.${owner.id}.eml`), "utf8")
          assert.strictEqual(TestSmtpServer.headerOf(raw, "To"), owner.email)
          assert.strictEqual(TestSmtpServer.headerOf(raw, "From"), `"margin-service" <no-reply@localhost>`)
          assert.include(TestSmtpServer.textOf(raw), "There is no replacement for it.")

          const again = yield* marginctlWithTestDeprecations(["deprecation", "notify", "--operation", "getRun"], {
            ...database,
            DATA_DIR: dataDir
          })
          assert.strictEqual(again.code, 0, again.stderr)
          assert.include(again.stdout, "Wrote 0 notices")
          assert.include(again.stdout, "6 owners and admins were notified before.")
        }),
      processTimeout
    )

    it.effect(
      "two runs at once send each notice once: each claims a notice before sending it, and leaves the other's claims alone",
      () =>
        Effect.gen(function* () {
          // A slow server (each message takes a second): the runs are still sending when the other reads the list.
          const server = yield* TestSmtpServer.make(undefined, { acceptAfterMs: 1_000 })
          const env = { ...(yield* testDatabaseEnvironment), SMTP_URL: server.url }
          const notify = marginctlWithTestDeprecations(
            ["deprecation", "notify", "--operation", "getAlert", "--json"],
            env
          )
          const runs = yield* Effect.all([notify, notify], { concurrency: 2 })
          const rows = yield* noticeRows("getAlert")
          const keys = server.received().map((mail) => TestSmtpServer.headerOf(mail.raw, "Message-ID") ?? "")
          // One message per recorded notice, none twice.
          assert.strictEqual(keys.length, rows.length)
          assert.strictEqual(new Set(keys).size, keys.length)
          assert.deepStrictEqual(
            keys.map((key) => key.replace(/^<deprecation\.getAlert\.([^.]+)\.([^@]+)@.*$/, "$1/$2")).sort(),
            sorted(rows.map((row) => [row.workspace_id, row.user_id]))
          )
          // Each run sent some and left the rest to the other: a run that met a claim says so and exits 4 (conflict).
          const reports = runs.map((run) => {
            assert.include([0, 4], run.code, run.stderr)
            if (run.code === 4) {
              assert.match(
                run.stderr,
                /"code":"conflict","message":"\d+ notices? (is|are) claimed by another notify run of getAlert \(running now, or stopped less than 10 minutes ago\); run the command again after that to send any it did not"/
              )
            }
            return jsonOf({ ...run, code: 0 })
          })
          assert.deepStrictEqual(
            sorted(reports.flatMap((report) => pairsOf(report.notified))),
            sorted(rows.map((row) => [row.workspace_id, row.user_id]))
          )
          // What a run met claimed it did not send; the other did (or had, before this run read the list).
          for (const report of reports) {
            assert.strictEqual(
              listOf(report.notified).length + listOf(report.in_progress).length + Number(report.already_notified),
              rows.length
            )
          }

          const after = jsonOf(yield* notify)
          assert.deepStrictEqual(after.notified, [])
          assert.deepStrictEqual(after.in_progress, [])
          assert.strictEqual(after.already_notified, rows.length)
        }),
      processTimeout
    )

    it.effect(
      "refuses an operation that is not deprecated (production deprecates none), and a bad SMTP_URL, before sending",
      () =>
        Effect.gen(function* () {
          const env = yield* testDatabaseEnvironment
          assertFailed(
            yield* marginctlWithTestDeprecations(["deprecation", "notify", "--operation", "listAlerts"], env),
            /^marginctl: listAlerts is not a deprecated operation \(deprecated: listRuns, getRun, getAlert\); list it in packages\/edge\/src\/wire\/DeprecatedOperations.ts and deploy first\n$/,
            2
          )
          assertFailedJson(
            yield* marginctl(["deprecation", "notify", "--operation", "listRuns", "--json"], env),
            /^listRuns is not a deprecated operation \(deprecated: none\)/,
            2
          )
          assertFailed(
            yield* marginctlWithTestDeprecations(["deprecation", "notify", "--operation", "listRuns"], {
              ...env,
              SMTP_URL: "smtps://ops:hunter2@127.0.0.1:1"
            }),
            /^marginctl: cannot use the SMTP server smtps:\/\/127\.0\.0\.1:1: /,
            5
          )
          assertFailed(
            yield* marginctlWithTestDeprecations(["deprecation", "notify", "--operation", "listRuns"], {
              ...env,
              SMTP_URL: "mail.example.com"
            }),
            /^marginctl: SMTP_URL is not a URL/,
            2
          )
        }),
      processTimeout
    )
  }
)
