import { existsSync } from "node:fs"
import { MemoryOutbox } from "@margin/core/memory/MemoryMailer"
import { Effect, Schedule } from "effect"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"

/** Debian's chromium (`apt-get install chromium`), driven by playwright-core. */
export const executablePath = "/usr/bin/chromium"

/** Whether a browser is installed: the browser tests and the console bench need one. */
export const browserInstalled = existsSync(executablePath)

/** As the machine's notes say: no sandbox as root, and no background traffic to the closed network. */
const launchArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]

export const promise = <A>(run: () => Promise<A>) => Effect.promise(run)

/** Headless Chromium for the scope. */
export const browser = Effect.acquireRelease(
  promise(() => chromium.launch({ executablePath, headless: true, args: launchArgs })),
  (opened) => promise(() => opened.close())
)

/** A fresh browser context (its own cookies and cache) for the scope, and a page that records any CSP violation. */
export const freshPage = (opened: Browser) =>
  Effect.acquireRelease(
    promise(() => opened.newContext({ viewport: { width: 1200, height: 860 } })),
    (context: BrowserContext) => promise(() => context.close())
  ).pipe(
    Effect.flatMap((context) => promise(() => context.newPage())),
    Effect.map((page) => {
      const violations: Array<string> = []
      page.on("console", (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
      })
      return { page, violations }
    })
  )

/** The mails kept for `email` (MemoryOutbox), oldest first. */
export const mailsTo = (email: string) =>
  Effect.map(
    Effect.flatMap(MemoryOutbox, (outbox) => outbox.sent),
    (sent) => sent.filter((message) => message.to === email)
  )

/** The first link of the newest mail to `email` after the first `before`; mails go beside the answer: waited for. */
export const mailedLink = (email: string, before: number) =>
  mailsTo(email).pipe(
    Effect.flatMap((sent) => {
      const link = /https?:\/\/\S+/.exec(sent.slice(before).at(-1)?.text ?? "")?.[0]
      return link === undefined ? Effect.fail(`no sign-in link mailed to ${email}`) : Effect.succeed(link)
    }),
    Effect.retry({ schedule: Schedule.spaced("20 millis"), times: 100 }),
    Effect.orDie
  )

/**
 * Opens `path` signed out and signs in by e-mail link as a person would (the sign-in page, the
 * mail, "Continue as ..."), landing back on `path`. Fails (dies) when a step's page is not there.
 */
export const signIn = (page: Page, origin: string, email: string, path = "/app") =>
  Effect.gen(function* () {
    yield* promise(() => page.goto(`${origin}${path}`))
    yield* promise(() => page.getByRole("heading", { level: 1, name: "Sign in to Margin" }).waitFor())
    const before = (yield* mailsTo(email)).length
    yield* promise(() => page.getByLabel("E-mail address").fill(email))
    yield* promise(() => page.getByRole("button", { name: "Send me a sign-in link" }).click())
    yield* promise(() => page.getByRole("status").waitFor())
    const link = yield* mailedLink(email, before)
    yield* promise(() => page.goto(link))
    yield* promise(() => page.getByRole("button", { name: `Continue as ${email}` }).click())
    yield* promise(() => page.waitForURL((url) => url.pathname.startsWith("/app")))
  })
