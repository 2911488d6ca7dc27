import { existsSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { assert, describe, layer } from "@effect/vitest"
import { MemoryOutbox } from "@margin/core/memory/MemoryMailer"
import { operationCatalogue } from "@margin/core/operations/OperationCatalogue"
import { aWorkspaceWithOwner } from "@margin/edge/testing/World"
import * as McpTestServer from "@margin/runtime/testing/McpTestServer"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { Effect } from "effect"
import { type Browser, chromium, type Page } from "playwright-core"
import {
  type AgentShape,
  connected,
  finishAuthorization,
  MemoryOAuthProvider,
  requestAuthorization
} from "./SdkOAuthProvider.ts"

/** Debian's chromium (`apt-get install chromium`), driven by playwright-core. */
const executablePath = "/usr/bin/chromium"

/** The agent's loopback listener (as an agent runs one): each request it gets is an answer, in order. */
const callbackListener = (path: string) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ readonly server: Server; readonly redirectUri: string; readonly next: () => Promise<URL> }>(
          (resolve) => {
            const answers: Array<URL> = []
            const waiting: Array<(url: URL) => void> = []
            const server = createServer((request, response) => {
              const url = new URL(request.url ?? "/", "http://127.0.0.1")
              // Only the redirect URI's path answers; the page's own requests (its favicon) do not.
              if (url.pathname !== path) return response.writeHead(404).end()
              const waiter = waiting.shift()
              if (waiter === undefined) answers.push(url)
              else waiter(url)
              response.writeHead(200, { "content-type": "text/plain" }).end("You can close this window.")
            })
            const next = () =>
              new Promise<URL>((done) => {
                const answer = answers.shift()
                if (answer === undefined) waiting.push(done)
                else done(answer)
              })
            // Port 0: a port the system picks, as VS Code does when its usual one is taken.
            server.listen(0, "127.0.0.1", () => {
              const address = server.address()
              const port = typeof address === "object" && address !== null ? address.port : 0
              resolve({ server, redirectUri: `http://127.0.0.1:${port}${path}`, next })
            })
          }
        )
    ),
    ({ server }) => Effect.promise(() => new Promise<void>((done) => server.close(() => done())))
  )

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

const browserPage = Effect.acquireRelease(
  Effect.promise(() => chromium.launch({ executablePath, headless: true, args: launchArgs })),
  (opened: Browser) => Effect.promise(() => opened.close())
).pipe(Effect.flatMap((opened) => Effect.promise(() => opened.newPage())))

const promise = <A>(evaluate: () => Promise<A>) => Effect.promise(evaluate)

/** The sign-in page filled in, the link from the outbox opened and continued: answers the consent page's heading. */
const signIn = (page: Page, authorizationUrl: URL, email: string) =>
  Effect.gen(function* () {
    yield* promise(() => page.goto(authorizationUrl.href))
    assert.strictEqual(yield* promise(() => page.getByRole("heading", { level: 1 }).textContent()), "Sign in to Margin")
    yield* promise(() => page.getByLabel("E-mail address").fill(email))
    yield* promise(() => page.getByRole("button", { name: "Send me a sign-in link" }).click())
    yield* promise(() => page.getByRole("status").waitFor())
    const mail = (yield* (yield* MemoryOutbox).sent).filter((message) => message.to === email).at(-1)
    const link = mail === undefined ? undefined : /https?:\/\/\S+/.exec(mail.text)?.[0]
    if (link === undefined) return assert.fail("no sign-in link in the outbox")
    yield* promise(() => page.goto(link))
    // Opening the link spends nothing: its "Continue as" page posts it back.
    yield* promise(() => page.getByRole("button", { name: `Continue as ${email}` }).click())
    yield* promise(() => page.waitForURL((url) => url.pathname === "/oauth/authorize"))
    return (yield* promise(() => page.getByRole("heading", { level: 1 }).textContent())) ?? ""
  })

/** The consent page answered "Allow", leaving `unticked` scopes out: answers where the server sent the browser. */
const allow = (page: Page, unticked: ReadonlyArray<string> = []) =>
  Effect.gen(function* () {
    for (const scope of unticked) {
      yield* promise(() => page.getByRole("checkbox", { name: new RegExp(scope) }).uncheck())
    }
    const answered = page.waitForResponse(
      (response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/oauth/authorize"
    )
    yield* promise(() => page.getByRole("button", { name: "Allow" }).click())
    const response = yield* promise(() => answered)
    assert.strictEqual(response.status(), 302)
    return new URL(response.headers().location ?? assert.fail("the consent answered no redirect"))
  })

const codeOf = (callback: URL): string => {
  assert.strictEqual(callback.searchParams.get("state"), "sdk-state-1")
  return callback.searchParams.get("code") ?? assert.fail(`no code at ${callback.href}`)
}

const toolNames = (client: Client) =>
  Effect.map(
    promise(() => client.listTools()),
    ({ tools }) => tools.map((tool) => tool.name)
  )

const scopeOf = (provider: MemoryOAuthProvider): ReadonlyArray<string> => (provider.tokens()?.scope ?? "").split(" ")

/** The SDK client's first connect: it discovers, registers with the agent's metadata, and opens the authorization URL. */
const firstAuthorization = (redirectUri: string, shape: AgentShape) =>
  Effect.gen(function* () {
    const url = yield* McpTestServer.mcpUrl
    const provider = new MemoryOAuthProvider(redirectUri, shape)
    yield* requestAuthorization(url, provider)
    const authorizationUrl = provider.authorizationUrl ?? assert.fail("the SDK opened no authorization URL")
    return { url, provider, authorizationUrl }
  })

const startingScopes = "runs:read recommendations:read alerts:read catalog:read reports:read workspace:read"

const runs = existsSync(executablePath)
if (!runs) console.log(`OAuthBrowser.test.ts skipped: no browser at ${executablePath} (apt-get install chromium)`)

describe.skipIf(!runs)("OAuth sign-in and consent in Chromium", () => {
  layer(McpTestServer.layer(), { timeout: "120 seconds" })("stock clients and the SDK", (it) => {
    it.effect(
      "the SDK asks for the starting scopes; a narrowed grant is widened by the SDK's step-up after a 403",
      () =>
        Effect.gen(function* () {
          const { owner } = yield* aWorkspaceWithOwner()
          const listener = yield* callbackListener("/callback")
          const { url, provider, authorizationUrl } = yield* firstAuthorization(listener.redirectUri, {
            keepsRefreshToken: false
          })
          // The 401's scope, not every scope of scopes_supported.
          assert.strictEqual(authorizationUrl.searchParams.get("scope"), startingScopes)

          const page = yield* browserPage
          assert.include(yield* signIn(page, authorizationUrl, owner.user.email), "SDK test agent")
          yield* allow(page, ["catalog:read"])
          yield* finishAuthorization(url, provider, codeOf(yield* promise(() => listener.next())))
          assert.notInclude(scopeOf(provider), "catalog:read")
          assert.include(scopeOf(provider), "runs:read")

          const client = yield* connected(url, provider)
          // A grant lists every tool, the ones beyond its scopes too: calling one is how it grows.
          assert.lengthOf(yield* toolNames(client), operationCatalogue.filter((entry) => entry.mcp !== null).length)
          const listed = yield* promise(() => client.callTool({ name: "list_runs", arguments: {} }))
          assert.notStrictEqual(listed.isError, true)

          // The step-up: 403 insufficient_scope; the SDK asks again for what the grant has plus catalog:read.
          const stepUp = yield* promise(() =>
            client.callTool({ name: "list_catalog_items", arguments: {} }).then(
              () => assert.fail("a call beyond the grant succeeded"),
              (error: unknown) => error
            )
          )
          assert.include(String(stepUp), "Unauthorized")
          const widened = provider.authorizationUrl ?? assert.fail("no step-up authorization URL")
          assert.notStrictEqual(widened.href, authorizationUrl.href)
          assert.strictEqual(widened.searchParams.get("scope"), startingScopes)
          // Still signed in: straight to the consent page, the wider set ticked.
          yield* promise(() => page.goto(widened.href))
          assert.include(
            (yield* promise(() => page.getByRole("heading", { level: 1 }).textContent())) ?? "",
            "SDK test agent"
          )
          yield* allow(page)
          yield* finishAuthorization(url, provider, codeOf(yield* promise(() => listener.next())))
          assert.include(scopeOf(provider), "catalog:read")
          const items = yield* promise(() => client.callTool({ name: "list_catalog_items", arguments: {} }))
          assert.notStrictEqual(items.isError, true, JSON.stringify(items))
        }).pipe(Effect.scoped)
    )

    it.effect("Cursor-shaped: registered with cursor://anysphere.cursor-mcp/oauth/callback, to a tool call", () =>
      Effect.gen(function* () {
        const { owner } = yield* aWorkspaceWithOwner()
        const cursorRedirect = "cursor://anysphere.cursor-mcp/oauth/callback"
        const { url, provider, authorizationUrl } = yield* firstAuthorization(cursorRedirect, {
          metadata: { client_name: "Cursor" }
        })
        const page = yield* browserPage
        const refusedByPolicy: Array<string> = []
        page.on("console", (message) => {
          if (message.text().includes("Content Security Policy")) refusedByPolicy.push(message.text())
        })
        assert.include(yield* signIn(page, authorizationUrl, owner.user.email), "Cursor")
        // Chromium hands cursor: to the operating system; the redirect it was given carries the code.
        const callback = yield* allow(page)
        assert.strictEqual(`${callback.protocol}//${callback.host}${callback.pathname}`, cursorRedirect)
        assert.deepStrictEqual(refusedByPolicy, [])
        yield* finishAuthorization(url, provider, codeOf(callback))
        const client = yield* connected(url, provider)
        const called = yield* promise(() => client.callTool({ name: "get_workspace_status", arguments: {} }))
        assert.notStrictEqual(called.isError, true, JSON.stringify(called))
      }).pipe(Effect.scoped)
    )

    it.effect(
      "VS Code-shaped: device_code listed, loopback URIs registered, back on a random port, to a tool call",
      () =>
        Effect.gen(function* () {
          const { owner } = yield* aWorkspaceWithOwner()
          // Its usual port is taken: it listens on one the system picks, which it never registered.
          const listener = yield* callbackListener("/")
          const { url, provider, authorizationUrl } = yield* firstAuthorization(listener.redirectUri, {
            metadata: {
              client_name: "Visual Studio Code",
              redirect_uris: [
                "https://insiders.vscode.dev/redirect",
                "https://vscode.dev/redirect",
                "http://127.0.0.1/",
                "http://127.0.0.1:33418/"
              ],
              grant_types: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"]
            }
          })
          assert.strictEqual(authorizationUrl.searchParams.get("redirect_uri"), listener.redirectUri)
          // Registered without that port: the loopback rule lets it through (RFC 8252 section 7.3).
          assert.notInclude(provider.clientMetadata.redirect_uris, listener.redirectUri)
          const page = yield* browserPage
          assert.include(yield* signIn(page, authorizationUrl, owner.user.email), "Visual Studio Code")
          yield* allow(page)
          const callback = yield* promise(() => listener.next())
          yield* finishAuthorization(url, provider, codeOf(callback))
          const client = yield* connected(url, provider)
          const called = yield* promise(() =>
            client.callTool({ name: "list_recommendations", arguments: { limit: 1 } })
          )
          assert.notStrictEqual(called.isError, true, JSON.stringify(called))
        }).pipe(Effect.scoped)
    )
  })
})
