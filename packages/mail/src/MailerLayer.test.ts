import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { Mailer, type MailMessage } from "@margin/core/kernel/Mailer"
import { Cause, ConfigProvider, Effect, Exit, Layer, Option } from "effect"
import * as MailerLayer from "./MailerLayer.ts"
import * as TestSmtpServer from "./testing/TestSmtpServer.ts"

const withEnv = (env: Readonly<Record<string, string>>) =>
  Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))

const message = (to: string, key = `test.${to.split("@")[0]}`): MailMessage => ({
  key,
  to,
  subject: "margin-service API: listRuns is deprecated",
  text: `Hello,\n\nthe v1 API operation listRuns is deprecated as of 2026-01-15; a line long enough to be wrapped by the encoder, with a = sign.\n`,
  date: Date.parse("2026-01-15T09:00:00Z")
})

/** Sends `messages` through the Mailer that `env` configures; each send's exit. */
const sendAll = (env: Readonly<Record<string, string>>, messages: ReadonlyArray<MailMessage>) =>
  Effect.gen(function* () {
    const mailer = yield* Mailer
    const exits = yield* Effect.forEach(messages, (m) => Effect.exit(mailer.send(m)))
    return { transport: mailer.transport, exits }
  }).pipe(
    // The data directory is the process's (runtime passes DATA_DIR); these tests give it as DATA_DIR too.
    Effect.provide(Layer.fresh(MailerLayer.layerConfig("deprecations", env.DATA_DIR ?? tmpdir()))),
    withEnv(env)
  )

const tempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "margin-mail-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

describe("Mailer over SMTP (SMTP_URL)", () => {
  it.effect("logs in, hands each message to the server, with MAIL_FROM, the date and a Message-ID from the key", () =>
    Effect.gen(function* () {
      const server = yield* TestSmtpServer.make({ user: "margin", pass: "s3cret/+" })
      const url = server.url.replace("s3cret/+", encodeURIComponent("s3cret/+"))
      const { transport, exits } = yield* sendAll({ SMTP_URL: url, MAIL_FROM: "Margin Ops <ops@margin.example>" }, [
        message("ada@shop.example"),
        message("bob@shop.example")
      ])
      assert.strictEqual(transport, "smtp")
      assert.isTrue(exits.every(Exit.isSuccess))
      const received = server.received()
      assert.deepStrictEqual(
        received.map((mail) => [mail.from, mail.to]),
        [
          ["ops@margin.example", ["ada@shop.example"]],
          ["ops@margin.example", ["bob@shop.example"]]
        ]
      )
      const raw = received[0]?.raw ?? ""
      assert.strictEqual(TestSmtpServer.headerOf(raw, "From"), "Margin Ops <ops@margin.example>")
      assert.strictEqual(TestSmtpServer.headerOf(raw, "To"), "ada@shop.example")
      assert.strictEqual(TestSmtpServer.headerOf(raw, "Subject"), "margin-service API: listRuns is deprecated")
      assert.strictEqual(TestSmtpServer.headerOf(raw, "Message-ID"), "<test.ada@margin.example>")
      assert.strictEqual(TestSmtpServer.headerOf(raw, "Date"), "Thu, 15 Jan 2026 09:00:00 +0000")
      assert.strictEqual(TestSmtpServer.textOf(raw), message("ada@shop.example").text)
    }).pipe(Effect.scoped)
  )

  it.effect("a recipient the server refuses fails that message only, with the server's answer", () =>
    Effect.gen(function* () {
      const server = yield* TestSmtpServer.make()
      server.refuse("gone@shop.example")
      const { exits } = yield* sendAll({ SMTP_URL: server.url }, [
        message("gone@shop.example"),
        message("ada@shop.example")
      ])
      const [refused, accepted] = exits
      assert.isTrue(accepted !== undefined && Exit.isSuccess(accepted))
      const failure =
        refused !== undefined && Exit.isFailure(refused) ? Cause.findErrorOption(refused.cause) : Option.none()
      assert.isTrue(Option.isSome(failure))
      if (Option.isSome(failure)) {
        assert.strictEqual(failure.value.to, "gone@shop.example")
        assert.match(failure.value.reason, /550/)
      }
      assert.deepStrictEqual(
        server.received().map((mail) => mail.to),
        [["ada@shop.example"]]
      )
      // Without MAIL_FROM, the default sender.
      assert.strictEqual(
        TestSmtpServer.headerOf(server.received()[0]?.raw ?? "", "From"),
        `"margin-service" <no-reply@localhost>`
      )
    }).pipe(Effect.scoped)
  )

  it.effect("a server that cannot be reached, or a wrong password, fails before anything is sent", () =>
    Effect.gen(function* () {
      const server = yield* TestSmtpServer.make({ user: "margin", pass: "right" })
      const wrongPassword = yield* Effect.exit(sendAll({ SMTP_URL: server.url.replace("right", "wrong") }, []))
      assert.isTrue(Exit.isFailure(wrongPassword))
      assert.match(String(Exit.isFailure(wrongPassword) ? wrongPassword.cause : ""), /MailUnavailable/)
      assert.match(String(Exit.isFailure(wrongPassword) ? wrongPassword.cause : ""), /smtp:\/\/127\.0\.0\.1:\d+/)
      assert.notMatch(String(Exit.isFailure(wrongPassword) ? wrongPassword.cause : ""), /wrong/)
      // A port nobody listens on: the closed server's.
      const closed = yield* Effect.scoped(Effect.map(TestSmtpServer.make(), (other) => other.url))
      const unreachable = yield* Effect.exit(sendAll({ SMTP_URL: closed }, []))
      assert.isTrue(Exit.isFailure(unreachable))
      assert.match(String(Exit.isFailure(unreachable) ? unreachable.cause : ""), /cannot use the SMTP server/)
    }).pipe(Effect.scoped)
  )

  it.effect("SMTP_URL and MAIL_FROM are checked, and a bad one is named without its password", () =>
    Effect.gen(function* () {
      const failureOf = (env: Record<string, string>) =>
        Effect.map(Effect.exit(sendAll(env, [])), (exit) => (Exit.isFailure(exit) ? String(exit.cause) : "succeeded"))
      assert.match(yield* failureOf({ SMTP_URL: "mail.example.com" }), /SMTP_URL is not a URL/)
      assert.match(
        yield* failureOf({ SMTP_URL: "http://user:hunter2@mail.example.com" }),
        /SMTP_URL has the scheme "http", not smtp or smtps/
      )
      assert.notMatch(yield* failureOf({ SMTP_URL: "http://user:hunter2@mail.example.com" }), /hunter2/)
      assert.match(yield* failureOf({ MAIL_FROM: "not an address" }), /MAIL_FROM "not an address" is not one e-mail/)
      assert.match(yield* failureOf({ MAIL_FROM: "a@x.example, b@x.example" }), /is not one e-mail/)
    })
  )
})

describe("Mailer as .eml files (no SMTP_URL)", () => {
  it.effect("writes one RFC 5322 file per message under <DATA_DIR>/outbox/<folder>, named after its key", () =>
    Effect.gen(function* () {
      const dataDir = yield* tempDir
      const { transport, exits } = yield* sendAll({ DATA_DIR: dataDir, SMTP_URL: "" }, [
        message("ada@shop.example", "deprecation.listRuns.ws_1.usr_1"),
        message("bob@shop.example", "deprecation.listRuns.ws_1.usr_2")
      ])
      assert.strictEqual(transport, "eml")
      assert.isTrue(exits.every(Exit.isSuccess))
      const outbox = join(dataDir, "outbox", "deprecations")
      assert.deepStrictEqual(readdirSync(outbox).sort(), [
        "deprecation.listRuns.ws_1.usr_1.eml",
        "deprecation.listRuns.ws_1.usr_2.eml"
      ])
      assert.strictEqual(statSync(outbox).mode & 0o777, 0o700)
      const raw = readFileSync(join(outbox, "deprecation.listRuns.ws_1.usr_1.eml"), "utf8")
      assert.strictEqual(TestSmtpServer.headerOf(raw, "From"), `"margin-service" <no-reply@localhost>`)
      assert.strictEqual(TestSmtpServer.headerOf(raw, "To"), "ada@shop.example")
      assert.strictEqual(TestSmtpServer.headerOf(raw, "Message-ID"), "<deprecation.listRuns.ws_1.usr_1@localhost>")
      assert.strictEqual(TestSmtpServer.headerOf(raw, "MIME-Version"), "1.0")
      assert.strictEqual(TestSmtpServer.textOf(raw), message("ada@shop.example").text)
    }).pipe(Effect.scoped)
  )

  it.effect("a long link stays whole on its own line of the file (7bit, not quoted-printable); non-ASCII is 8bit", () =>
    Effect.gen(function* () {
      const dataDir = yield* tempDir
      const link = `http://127.0.0.1:8787/oauth/login/link?token=${"a=b_".repeat(40)}&next=%2Foauth%2Fauthorize`
      const text = `Open this link within 10 minutes to sign in (it works once):\n\n${link}\n\nIf you did not ask for it, ignore this message.\n`
      const { exits } = yield* sendAll({ DATA_DIR: dataDir, SMTP_URL: "" }, [
        { ...message("ada@shop.example", "oauth-login.1"), text },
        { ...message("bob@shop.example", "oauth-login.2"), text: `Grüße:\n\n${link}\n` }
      ])
      assert.isTrue(exits.every(Exit.isSuccess))
      const outbox = join(dataDir, "outbox", "deprecations")
      const raw = readFileSync(join(outbox, "oauth-login.1.eml"), "utf8")
      assert.strictEqual(TestSmtpServer.headerOf(raw, "Content-Transfer-Encoding"), "7bit")
      assert.match(TestSmtpServer.headerOf(raw, "Content-Type") ?? "", /^text\/plain; charset=utf-8/)
      // Copied from the file as it is: the link is one line of it, unchanged.
      assert.include(raw.split("\r\n"), link)
      assert.strictEqual(TestSmtpServer.textOf(raw), text)
      assert.isTrue(raw.split("\r\n").every((line) => Buffer.byteLength(line) <= 998))
      const accented = readFileSync(join(outbox, "oauth-login.2.eml"), "utf8")
      assert.strictEqual(TestSmtpServer.headerOf(accented, "Content-Transfer-Encoding"), "8bit")
      assert.strictEqual(TestSmtpServer.textOf(accented), `Grüße:\n\n${link}\n`)
    }).pipe(Effect.scoped)
  )

  it.effect("a directory that cannot be written fails each message with the reason", () =>
    Effect.gen(function* () {
      // /dev/null is no directory: nothing can be created under it.
      const { exits } = yield* sendAll({ DATA_DIR: "/dev/null/margin" }, [message("ada@shop.example")])
      const [exit] = exits
      const failure = exit !== undefined && Exit.isFailure(exit) ? Cause.findErrorOption(exit.cause) : Option.none()
      assert.isTrue(Option.isSome(failure))
      if (Option.isSome(failure)) {
        assert.strictEqual(failure.value.to, "ada@shop.example")
        assert.match(failure.value.reason, /ENOTDIR/)
      }
    })
  )
})
