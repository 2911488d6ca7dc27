import { NodeHttpClient } from "@effect/platform-node"
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { ShopifyConfig } from "./ShopifyConfig.ts"
import { checkShopifyShop } from "./ShopifyShopCheck.ts"
import { FakeShopify, fakeShop } from "./testing/FakeShopify.ts"

const overFake = Layer.unwrap(
  Effect.map(FakeShopify, (fake) =>
    Layer.mergeAll(ShopifyConfig.layerWith({ baseUrl: Option.some(fake.url) }), NodeHttpClient.layerUndici)
  )
).pipe(Layer.provideMerge(FakeShopify.layer()))

const token = (text: string) => Redacted.make(text)

layer(overFake, { excludeTestServices: true })("checking a Shopify connection with one read", (it) => {
  it.effect("a good token names its shop; the fake saw one call, the shop query", () =>
    Effect.gen(function* () {
      const fake = yield* FakeShopify
      const before = (yield* fake.requests).length
      const checked = yield* checkShopifyShop(fakeShop.toUpperCase(), token(fake.options.accessToken))
      assert.deepStrictEqual(checked, { name: "Fake Shop", domain: fakeShop })
      const calls = (yield* fake.requests).slice(before)
      assert.deepStrictEqual(
        calls.map((call) => [call.operation, call.answer]),
        [["shop", "ok"]]
      )
    })
  )

  it.effect("refuses a bad token, another shop's token, and a domain that is not myshopify.com, with the reason", () =>
    Effect.gen(function* () {
      const fake = yield* FakeShopify
      const badToken = yield* Effect.flip(checkShopifyShop(fakeShop, token("shpat_not_this_one")))
      assert.strictEqual(badToken._tag, "ShopifyRefused")
      assert.match(badToken.message, /401|Invalid API key|access token/i)
      const otherShop = yield* Effect.flip(
        checkShopifyShop("other-shop.myshopify.com", token(fake.options.accessToken))
      )
      assert.deepStrictEqual(
        [otherShop._tag, otherShop.message],
        ["ShopifyRefused", `the access token opens ${fakeShop}, not other-shop.myshopify.com`]
      )
      const before = (yield* fake.requests).length
      for (const domain of ["shop.example.com", "acme", "acme.myshopify.com.evil.example", ""]) {
        const refused = yield* Effect.flip(checkShopifyShop(domain, token(fake.options.accessToken)))
        assert.match(refused.message, /is not a shop's myshopify domain/, domain)
      }
      assert.strictEqual((yield* fake.requests).length, before, "a domain refused up front costs no call")
    })
  )

  it.effect("Shopify unreachable is StoreUnavailable, not a refusal", () =>
    Effect.gen(function* () {
      const fake = yield* FakeShopify
      yield* fake.failNext({ _tag: "Status", status: 503 }, { times: 10 })
      const unavailable = yield* Effect.flip(checkShopifyShop(fakeShop, token(fake.options.accessToken)))
      assert.strictEqual(unavailable._tag, "StoreUnavailable")
    })
  )
})
