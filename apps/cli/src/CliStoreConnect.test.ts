import { assert, layer } from "@effect/vitest"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { FakeShopify, fakeShop } from "@margin/stores/testing/FakeShopify"
import { Effect, Layer } from "effect"
import {
  assertFailed,
  jsonOf,
  marginctl,
  marginctlJsonOnTestDatabase,
  processTimeout,
  testDatabaseEnvironment,
  textOf
} from "./testing/Marginctl.ts"

/** `marginctl store connect --platform shopify` checks the shop and the token with one read before storing them. */

layer(Layer.mergeAll(TestDatabase.layer, FakeShopify.layer()), { timeout: "5 minutes", excludeTestServices: true })(
  "marginctl store connect: a Shopify connection is checked",
  (it) => {
    it.effect(
      "refuses a bad token, another shop's token and a domain that is not myshopify.com; connects a good one",
      () =>
        Effect.gen(function* () {
          const fake = yield* FakeShopify
          const env = { ...(yield* testDatabaseEnvironment), SHOPIFY_BASE_URL: fake.url }
          const cli = (...args: ReadonlyArray<string>) => marginctl(args, env)
          const workspaceId = textOf(
            (yield* marginctlJsonOnTestDatabase("workspace", "create", "--name", "Shop Co", "--plan", "max")).id
          )
          const connect = (shop: string, token: string, ...more: ReadonlyArray<string>) =>
            cli(
              "store",
              "connect",
              "--workspace",
              workspaceId,
              "--platform",
              "shopify",
              "--shop",
              shop,
              "--access-token",
              token,
              ...more
            )
          const before = (yield* fake.requests).length
          assertFailed(yield* connect("shop.example.com", fake.options.accessToken), /myshopify domain/, 2)
          assert.strictEqual((yield* fake.requests).length, before, "a domain that is not myshopify.com costs no call")
          assertFailed(
            yield* connect(fakeShop, "shpat_made_up"),
            /Shopify refused the connection: .*(401|access token)/i,
            1
          )
          assertFailed(
            yield* connect("other-shop.myshopify.com", fake.options.accessToken),
            new RegExp(`Shopify refused the connection: the access token opens ${fakeShop}, not other-shop`),
            1
          )
          assertFailed(yield* cli("store", "show", "--workspace", workspaceId), /store connection/, 3)

          const connected = jsonOf(yield* connect(fakeShop, fake.options.accessToken, "--json"))
          assert.deepStrictEqual(
            [connected.platform, connected.shop, connected.shop_name, connected.status],
            ["shopify", fakeShop, "Fake Shop", "connected"]
          )
          assert.deepStrictEqual(
            (yield* fake.requests).slice(before).map((request) => [request.operation, request.answer]),
            [
              ["unknown", "unauthorized"],
              ["shop", "ok"],
              ["shop", "ok"]
            ]
          )
        }),
      processTimeout
    )
  }
)
