import { createServer, type Server } from "node:http"
import { assert, describe, layer } from "@effect/vitest"
import { aWorkspaceWithOwner } from "@margin/edge/testing/World"
import { browser, browserInstalled, executablePath } from "@margin/runtime/testing/HeadlessChromium"
import * as McpTestServer from "@margin/runtime/testing/McpTestServer"
import { Effect } from "effect"
import { mailCount, mailedLink } from "./ConsentByHttp.ts"
import { connected, finishAuthorization, MemoryOAuthProvider, requestAuthorization } from "./SdkOAuthProvider.ts"

/** The agent's loopback listener (as an agent runs one): the first request it gets is the answer. */
const callbackListener = Effect.acquireRelease(
  Effect.promise(
    () =>
      new Promise<{ readonly server: Server; readonly redirectUri: string; readonly answer: Promise<URL> }>(
        (resolve) => {
          let answered: (url: URL) => void = () => {}
          const answer = new Promise<URL>((done) => {
            answered = done
          })
          const server = createServer((request, response) => {
            answered(new URL(request.url ?? "/", "http://127.0.0.1"))
            response.writeHead(200, { "content-type": "text/plain" }).end("You can close this window.")
          })
          server.listen(0, "127.0.0.1", () => {
            const address = server.address()
            const port = typeof address === "object" && address !== null ? address.port : 0
            resolve({ server, redirectUri: `http://127.0.0.1:${port}/callback`, answer })
          })
        }
      )
  ),
  ({ server }) => Effect.promise(() => new Promise<void>((done) => server.close(() => done())))
)

if (!browserInstalled) {
  console.log(`OAuthBrowser.test.ts skipped: no browser at ${executablePath} (apt-get install chromium)`)
}

describe.skipIf(!browserInstalled)("OAuth sign-in and consent in Chromium", () => {
  layer(McpTestServer.layer(), { timeout: "90 seconds" })("the whole flow", (it) => {
    it.effect(
      "the SDK client's authorization URL, signed in and consented to in Chromium, ends in a working agent",
      () =>
        Effect.gen(function* () {
          const { owner } = yield* aWorkspaceWithOwner()
          const url = yield* McpTestServer.mcpUrl
          const listener = yield* callbackListener
          const provider = new MemoryOAuthProvider(listener.redirectUri)
          yield* requestAuthorization(url, provider)
          const authorizationUrl = provider.authorizationUrl
          if (authorizationUrl === undefined) return assert.fail("the SDK opened no authorization URL")

          const page = yield* Effect.flatMap(browser, (opened) => Effect.promise(() => opened.newPage()))
          yield* Effect.promise(() => page.goto(authorizationUrl.href))
          assert.strictEqual(
            yield* Effect.promise(() => page.getByRole("heading", { level: 1 }).textContent()),
            "Sign in to Margin"
          )
          yield* Effect.promise(() => page.getByLabel("E-mail address").fill(owner.user.email))
          const before = yield* mailCount(owner.user.email)
          yield* Effect.promise(() => page.getByRole("button", { name: "Send me a sign-in link" }).click())
          yield* Effect.promise(() => page.getByRole("status").waitFor())
          const link = yield* mailedLink(owner.user.email, before)

          // The link asks first (login CSRF, mail scanners): the user confirms with the button.
          yield* Effect.promise(() => page.goto(link.href))
          yield* Effect.promise(() => page.getByRole("button", { name: `Continue as ${owner.user.email}` }).click())
          const heading = yield* Effect.promise(() => page.getByRole("heading", { level: 1 }).textContent())
          assert.include(heading ?? "", "SDK test agent")
          // Narrow the scopes: leave only list access to runs.
          for (const scope of ["catalog:read", "runs:trigger"]) {
            yield* Effect.promise(() => page.getByRole("checkbox", { name: new RegExp(scope) }).uncheck())
          }
          yield* Effect.promise(() => page.getByRole("button", { name: "Allow" }).click())
          const callback = yield* Effect.promise(() => listener.answer)
          const code = callback.searchParams.get("code")
          if (code === null) return assert.fail(`no code at ${callback.href}`)
          assert.strictEqual(callback.searchParams.get("state"), "sdk-state-1")

          yield* finishAuthorization(url, provider, code)
          const scope = provider.tokens()?.scope ?? ""
          assert.notInclude(scope.split(" "), "catalog:read")
          assert.include(scope.split(" "), "runs:read")
          const client = yield* connected(url, provider)
          const tools = (yield* Effect.promise(() => client.listTools())).tools.map((tool) => tool.name)
          assert.include(tools, "list_runs")
          assert.notInclude(tools, "list_catalog_items")
          const called = yield* Effect.promise(() => client.callTool({ name: "list_runs", arguments: {} }))
          assert.notStrictEqual(called.isError, true)
        }).pipe(Effect.scoped)
    )
  })
})
