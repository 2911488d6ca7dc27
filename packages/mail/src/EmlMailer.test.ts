import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { Mailer, type MailMessage } from "@margin/core/kernel/Mailer"
import { Effect, Exit } from "effect"
import * as EmlMailer from "./EmlMailer.ts"

const message = (key: string): MailMessage => ({
  key,
  to: "ada@shop.example",
  subject: "Sign in to Margin",
  text: "Open this link within 10 minutes.\n",
  date: Date.parse("2026-01-15T09:00:00Z")
})

const outbox = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "margin-eml-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

describe("EmlMailer under concurrency", () => {
  it.effect("300 mails sent at once are 300 files; 20 of one key at once all succeed, as one file", () =>
    Effect.gen(function* () {
      const directory = yield* outbox
      const send = (messages: ReadonlyArray<MailMessage>) =>
        Effect.flatMap(Mailer, (mailer) =>
          Effect.forEach(messages, (m) => Effect.exit(mailer.send(m)), { concurrency: "unbounded" })
        ).pipe(Effect.provide(EmlMailer.layer(directory, "margin <no-reply@localhost>")))
      const distinct = yield* send(Array.from({ length: 300 }, (_, n) => message(`oauth-login-usr_1-1-${n}`)))
      assert.isTrue(distinct.every(Exit.isSuccess))
      const same = yield* send(Array.from({ length: 20 }, () => message("deprecation.listRuns.ws_1.usr_1")))
      assert.isTrue(same.every(Exit.isSuccess), String(same.find(Exit.isFailure)))
      const files = readdirSync(directory)
      assert.strictEqual(files.filter((name) => name.endsWith(".eml")).length, 301)
      assert.deepStrictEqual(
        files.filter((name) => !name.endsWith(".eml")),
        []
      )
    }).pipe(Effect.scoped)
  )
})
