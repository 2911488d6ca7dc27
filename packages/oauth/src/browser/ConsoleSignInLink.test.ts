import { randomBytes } from "node:crypto"
import { assert, describe, it } from "@effect/vitest"
import * as MemoryAdapters from "@margin/core/memory/MemoryAdapters"
import { SignIn } from "@margin/core/oauth/SignIn"
import { seedUser } from "@margin/core/testing/Seed"
import { Effect, Layer, Redacted } from "effect"
import { TestConsole } from "effect/testing"
import { announceConsole } from "./ConsoleSignInLink.ts"
import { linkOf, safeReturnTo } from "./OAuthBrowserSession.ts"
import { OAuthLoginSettings } from "./OAuthLoginSettings.ts"

describe("safeReturnTo", () => {
  it.each([
    ["/oauth/authorize?client_id=x", true],
    ["/app", true],
    ["/app/w/ws_1/recommendations?status=new", true],
    ["/app?x=1", true],
    ["/application", false],
    ["/app//evil.example", false],
    ["/app/\\evil.example", false],
    ["/app/\r\nSet-Cookie:x", false],
    ["/app/\u2028", false],
    ["/app/\u0000", false],
    ["https://evil.example/app", false],
    ["//evil.example/app", false]
  ] as const)("%j -> allowed %s", (returnTo, allowed) => {
    assert.strictEqual(safeReturnTo(returnTo) !== undefined, allowed)
  })
})

const settings = { emailLink: true, key: Redacted.make(randomBytes(32)) }
const signIn = SignIn.layer.pipe(Layer.provideMerge(MemoryAdapters.layer))

describe("announceConsole", () => {
  it.effect("prints the console's address and a link that signs in the user, back to /app", () =>
    Effect.gen(function* () {
      const user = yield* seedUser({ email: "owner@demo-store.example" })
      yield* Layer.build(announceConsole("owner@demo-store.example", "http://127.0.0.1:8787"))
      const [line] = yield* TestConsole.logLines
      const text = String(line)
      assert.include(text, "Console: http://127.0.0.1:8787/app")
      const href = /http:\/\/127\.0\.0\.1:8787\/oauth\/login\/link\?\S+/.exec(text)?.[0] ?? ""
      const link = new URL(href)
      assert.strictEqual(link.searchParams.get("return_to"), "/app")
      assert.strictEqual(linkOf(settings, link.searchParams.get("token") ?? "", 0)?.userId, user.id)
    }).pipe(Effect.scoped, Effect.provide([signIn, OAuthLoginSettings.layerWith(settings), TestConsole.layer]))
  )

  it.effect("without sign-in by e-mail link, or for an unknown address, only the address", () =>
    Effect.gen(function* () {
      yield* Layer.build(announceConsole("nobody@example.com", "https://margin.example"))
      assert.deepStrictEqual(yield* TestConsole.logLines, ["Console: https://margin.example/app"])
    }).pipe(Effect.scoped, Effect.provide([signIn, OAuthLoginSettings.layerWith(settings), TestConsole.layer]))
  )
})
