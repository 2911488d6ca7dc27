import { assert, describe, it } from "@effect/vitest"
import { CurrencyCode, formatMajorUnits, parseMajorUnits } from "@margin/core/kernel/Money"
import * as MemoryIdGenerator from "@margin/core/memory/MemoryIdGenerator"
import { aStoreConnection, aWriteBack, aWriteBackPayload } from "@margin/core/testing/Fixtures"
import { StoreHarness } from "@margin/core/testing/StoreHarness"
import { storeWriteBackContract } from "@margin/core/testing/StoreWriteBackContract"
import { StoreWriteBack } from "@margin/core/writeback/StoreWriteBack"
import type { WriteBackPayload } from "@margin/core/writeback/WriteBack"
import { Duration, Effect, Layer, Option, Result } from "effect"
import { ShopifyStore, shopDomain } from "./ShopifyStore.ts"
import { FakeShopify, fakeShop } from "./testing/FakeShopify.ts"
import { shopifyStoreOverFake } from "./testing/ShopifyStoreOverFake.ts"

const variant = "gid://shopify/ProductVariant/101"
const product = "gid://shopify/Product/1"
const connectionTo = (shop: string | null) => aStoreConnection({ platform: "shopify", shop })
const connection = connectionTo(fakeShop)
/** The write-back of $10.00 -> $12.00 on `variant`, with `payload` replaced. */
const writeBack = (payload: Partial<WriteBackPayload> = {}) =>
  aWriteBack({ payload: aWriteBackPayload({ storeVariantRef: variant, oldPrice: 1000, newPrice: 1200, ...payload }) })
const raise = writeBack()

/** A fake shop with one variant at $10.00, and the store adapter pointed at it. */
const seeded = Effect.gen(function* () {
  const fake = yield* FakeShopify
  yield* fake.setVariant(variant, { productId: product, price: "10.00" })
  return { fake, store: yield* ShopifyStore }
})

/** The port's contract against the fake Shopify: variants are new global ids of one product, priced in USD. */
const contractServices = Layer.mergeAll(
  Layer.effect(
    StoreWriteBack,
    Effect.map(ShopifyStore, (store) => StoreWriteBack.of(store))
  ),
  Layer.effect(
    StoreHarness,
    Effect.gen(function* () {
      const fake = yield* FakeShopify
      const usd = CurrencyCode.make("USD")
      let variants = 0
      return StoreHarness.of({
        connection: (workspaceId) =>
          Effect.succeed(aStoreConnection({ workspaceId, platform: "shopify", shop: fakeShop })),
        newVariant: (_workspaceId, price) =>
          Effect.suspend(() => {
            const id = `gid://shopify/ProductVariant/${++variants}`
            return Effect.as(fake.setVariant(id, { productId: product, price: formatMajorUnits(price, usd) }), id)
          }),
        setPrice: (_workspaceId, variantRef, price) => fake.setPrice(variantRef, formatMajorUnits(price, usd)),
        priceOf: (_workspaceId, variantRef) =>
          Effect.map(fake.price(variantRef), (price) =>
            price === undefined ? Option.none() : Result.getSuccess(parseMajorUnits(price, usd))
          )
      })
    })
  ),
  MemoryIdGenerator.layer
).pipe(Layer.provideMerge(shopifyStoreOverFake()))

storeWriteBackContract("shopify", contractServices)

/**
 * The request timeout of the tests whose fake never answers: short enough to wait out, long enough
 * that the calls that are answered are not cut on a loaded machine. The others keep the default.
 */
const hangTimeout = { requestTimeout: Duration.seconds(2) }

const deliverTwice = Effect.gen(function* () {
  const { store } = yield* seeded
  return [yield* store.deliver(connection, raise), yield* store.deliver(connection, raise)] as const
})

describe("ShopifyStore against the fake Shopify", () => {
  it.live("writes over the expected old price, once; a repeat finds it applied", () =>
    Effect.gen(function* () {
      const [first, second] = yield* deliverTwice
      const fake = yield* FakeShopify
      assert.deepStrictEqual(first, { _tag: "Applied" })
      assert.deepStrictEqual(second, { _tag: "AlreadyApplied" })
      assert.strictEqual(yield* fake.price(variant), "12.00")
      assert.deepStrictEqual(yield* fake.writes, [{ variantId: variant, price: "12.00" }])
    }).pipe(Effect.provide(shopifyStoreOverFake()))
  )

  it.live("a price changed by someone else before delivery: no write, price drift", () =>
    Effect.gen(function* () {
      const { fake, store } = yield* seeded
      yield* fake.setPrice(variant, "11.00")
      const result = yield* store.deliver(connection, raise)
      assert.deepStrictEqual(result, { _tag: "PriceDrift", observedPrice: 1100 })
      assert.strictEqual((yield* fake.writes).length, 0)
      assert.strictEqual(yield* fake.price(variant), "11.00")
    }).pipe(Effect.provide(shopifyStoreOverFake()))
  )

  it.live("the documented limit: a change between our read and our write is overwritten", () =>
    Effect.gen(function* () {
      const { fake, store } = yield* seeded
      yield* fake.failNext(
        { _tag: "PriceChangedMeanwhile", variantId: variant, price: "11.00" },
        { operation: "write" }
      )
      const result = yield* store.deliver(connection, raise)
      // Shopify offers no compare-and-swap on a price, so the merchant's 11.00 is lost: see docs/stores.md.
      assert.deepStrictEqual(result, { _tag: "Applied" })
      assert.strictEqual(yield* fake.price(variant), "12.00")
    }).pipe(Effect.provide(shopifyStoreOverFake()))
  )

  it.live("userErrors are a permanent refusal, and nothing is written", () =>
    Effect.gen(function* () {
      const { fake, store } = yield* seeded
      yield* fake.failNext(
        { _tag: "UserErrors", errors: [{ code: "INVALID_INPUT", message: "Input is invalid." }] },
        { operation: "write" }
      )
      const result = yield* store.deliver(connection, raise)
      assert.strictEqual(result._tag, "Rejected")
      assert.include(result._tag === "Rejected" ? result.message : "", "INVALID_INPUT")
      assert.strictEqual(yield* fake.price(variant), "10.00")
    }).pipe(Effect.provide(shopifyStoreOverFake()))
  )

  it.live("a retryable userError is a transient failure", () =>
    Effect.gen(function* () {
      const { fake, store } = yield* seeded
      yield* fake.failNext(
        { _tag: "UserErrors", errors: [{ code: "CANNOT_CURRENTLY_BE_CHANGED", message: "Incoming transfer." }] },
        { operation: "write" }
      )
      const error = yield* Effect.flip(store.deliver(connection, raise))
      assert.include(error.message, "CANNOT_CURRENTLY_BE_CHANGED")
      assert.deepStrictEqual(yield* store.deliver(connection, raise), { _tag: "Applied" })
    }).pipe(Effect.provide(shopifyStoreOverFake()))
  )

  it.live("THROTTLED answers are waited out and sent again, within the retry bound", () =>
    Effect.gen(function* () {
      const { fake, store } = yield* seeded
      yield* fake.failNext({ _tag: "Throttled" }, { times: 2, operation: "read" })
      assert.deepStrictEqual(yield* store.deliver(connection, raise), { _tag: "Applied" })
      const answers = (yield* fake.requests).map((request) => `${request.operation}:${request.answer}`)
      assert.deepStrictEqual(answers, ["read:throttled", "read:throttled", "read:ok", "write:ok"])
    }).pipe(Effect.provide(shopifyStoreOverFake()))
  )

  it.live("throttled beyond the retry bound: unavailable, and nothing written", () =>
    Effect.gen(function* () {
      const { fake, store } = yield* seeded
      yield* fake.failNext({ _tag: "Throttled" }, { times: 10 })
      const error = yield* Effect.flip(store.deliver(connection, raise))
      assert.include(error.message, "still throttled after 2 retries")
      assert.strictEqual((yield* fake.requests).length, 3)
      assert.strictEqual((yield* fake.writes).length, 0)
    }).pipe(Effect.provide(shopifyStoreOverFake({ config: { maxThrottleRetries: 2 } })))
  )

  it.live("HTTP 429 is retried after its Retry-After", () =>
    Effect.gen(function* () {
      const { fake, store } = yield* seeded
      yield* fake.failNext({ _tag: "Status", status: 429, retryAfterSeconds: 0.05 })
      assert.deepStrictEqual(yield* store.deliver(connection, raise), { _tag: "Applied" })
    }).pipe(Effect.provide(shopifyStoreOverFake()))
  )

  it.live("a Retry-After longer than the pacing allows is left to the outbox's backoff", () =>
    Effect.gen(function* () {
      const { fake, store } = yield* seeded
      yield* fake.failNext({ _tag: "Status", status: 429, retryAfterSeconds: 3600 })
      const error = yield* Effect.flip(store.deliver(connection, raise))
      assert.include(error.message, "throttled for 3600000 ms")
      assert.strictEqual((yield* fake.requests).length, 1)
    }).pipe(Effect.provide(shopifyStoreOverFake()))
  )

  it.live("paces on throttleStatus: waits for restored points instead of being throttled", () =>
    Effect.gen(function* () {
      const { fake, store } = yield* seeded
      const other = "gid://shopify/ProductVariant/102"
      yield* fake.setVariant(other, { productId: product, price: "10.00" })
      // 13 points at 20/s: the first delivery (3 + 10) drains the bucket; the second must wait 650 ms in all.
      yield* fake.setBucket({ maximumAvailable: 20, currentlyAvailable: 13, restoreRate: 20 })
      yield* store.deliver(connection, raise)
      const before = yield* fake.requests
      const result = yield* store.deliver(connection, writeBack({ storeVariantRef: other }))
      assert.deepStrictEqual(result, { _tag: "Applied" })
      const requests = yield* fake.requests
      assert.isFalse(requests.some((request) => request.answer === "throttled"))
      // On the fake's own clock: from its answer to the first write (with `available` points left) to
      // the second write, the bucket restored the second delivery's 13 points (less one for rounding).
      const firstWrite = before.at(-1)
      const secondWrite = requests.at(-1)
      if (firstWrite?.available == null || secondWrite === undefined) return assert.fail("two answered writes")
      assert.deepStrictEqual([firstWrite.operation, secondWrite.operation, requests.length], ["write", "write", 4])
      assert.isAtLeast(secondWrite.at - firstWrite.at, ((13 - firstWrite.available - 1) / 20) * 1000)
    }).pipe(Effect.provide(shopifyStoreOverFake()))
  )

  it.live("a pause longer than allowed is reported unavailable instead of waited", () =>
    Effect.gen(function* () {
      const { fake, store } = yield* seeded
      yield* fake.setBucket({ maximumAvailable: 1000, currentlyAvailable: 3, restoreRate: 1 })
      yield* store.deliver(connection, raise).pipe(Effect.exit)
      const error = yield* Effect.flip(store.deliver(connection, raise))
      assert.include(error.message, "needs a pause")
    }).pipe(Effect.provide(shopifyStoreOverFake({ config: { maxPacingWait: Duration.seconds(1) } })))
  )

  it.live("5xx is unavailable; once Shopify recovers the write lands once", () =>
    Effect.gen(function* () {
      const { fake, store } = yield* seeded
      yield* fake.failNext({ _tag: "Status", status: 503 })
      yield* fake.failNext({ _tag: "Status", status: 502 }, { operation: "write" })
      assert.include((yield* Effect.flip(store.deliver(connection, raise))).message, "HTTP 503")
      assert.include((yield* Effect.flip(store.deliver(connection, raise))).message, "HTTP 502")
      assert.strictEqual((yield* fake.writes).length, 0)
      assert.deepStrictEqual(yield* store.deliver(connection, raise), { _tag: "Applied" })
      assert.strictEqual((yield* fake.writes).length, 1)
    }).pipe(Effect.provide(shopifyStoreOverFake()))
  )

  it.live("a hanging Shopify times out as unavailable", () =>
    Effect.gen(function* () {
      const { fake, store } = yield* seeded
      yield* fake.failNext({ _tag: "Hang" })
      const error = yield* Effect.flip(store.deliver(connection, raise))
      assert.include(error.message, "no answer to ProductVariantPrice within 2s")
      assert.deepStrictEqual(yield* store.deliver(connection, raise), { _tag: "Applied" })
    }).pipe(Effect.provide(shopifyStoreOverFake({ config: hangTimeout })))
  )

  it.live("a delivery that outlasts its deadline is unavailable, whatever call it was waiting on", () =>
    Effect.gen(function* () {
      const { fake, store } = yield* seeded
      yield* fake.failNext({ _tag: "Hang" })
      const error = yield* Effect.flip(store.deliver(connection, raise))
      assert.include(error.message, "delivery did not finish within")
    }).pipe(
      Effect.provide(
        shopifyStoreOverFake({ config: { requestTimeout: Duration.seconds(5), deliveryTimeout: Duration.millis(200) } })
      )
    )
  )

  it.live("a write that landed but whose answer never came is found applied on the next delivery", () =>
    Effect.gen(function* () {
      const { fake, store } = yield* seeded
      yield* fake.failNext({ _tag: "HangAfterExecuting" }, { operation: "write" })
      const error = yield* Effect.flip(store.deliver(connection, raise))
      assert.include(error.message, "no answer to ProductVariantPriceUpdate")
      assert.deepStrictEqual(yield* store.deliver(connection, raise), { _tag: "AlreadyApplied" })
      assert.strictEqual((yield* fake.writes).length, 1)
    }).pipe(Effect.provide(shopifyStoreOverFake({ config: hangTimeout })))
  )

  it.live("top-level GraphQL errors: internal errors are transient, access denied is a refusal", () =>
    Effect.gen(function* () {
      const { fake, store } = yield* seeded
      yield* fake.failNext({ _tag: "GraphqlError", code: "INTERNAL_SERVER_ERROR", message: "Internal error" })
      assert.include((yield* Effect.flip(store.deliver(connection, raise))).message, "Internal error")
      yield* fake.failNext({ _tag: "GraphqlError", code: "ACCESS_DENIED", message: "Access denied" })
      const refused = yield* store.deliver(connection, raise)
      assert.strictEqual(refused._tag, "Rejected")
    }).pipe(Effect.provide(shopifyStoreOverFake()))
  )

  it.live("a wrong access token is a refusal (HTTP 401)", () =>
    Effect.gen(function* () {
      const { store } = yield* seeded
      const result = yield* store.deliver(connection, raise)
      assert.strictEqual(result._tag, "Rejected")
      assert.include(result._tag === "Rejected" ? result.message : "", "HTTP 401")
    }).pipe(Effect.provide(shopifyStoreOverFake({ tokens: { [fakeShop]: "shpat_wrong" } })))
  )

  it.live("refuses without calling when credentials, variant or shop are missing or wrong", () =>
    Effect.gen(function* () {
      const { fake, store } = yield* seeded
      const reasons = [
        yield* store.deliver(connectionTo("other-shop"), raise),
        yield* store.deliver(connectionTo(null), raise),
        yield* store.deliver(connectionTo("https://evil.example"), raise),
        yield* store.deliver(connection, writeBack({ storeVariantRef: null })),
        yield* store.deliver(connection, writeBack({ storeVariantRef: "sku-12" }))
      ]
      assert.deepStrictEqual(
        reasons.map((result) => result._tag),
        ["Rejected", "Rejected", "Rejected", "Rejected", "Rejected"]
      )
      assert.strictEqual((yield* fake.requests).length, 0)
    }).pipe(Effect.provide(shopifyStoreOverFake()))
  )

  it.live("an unknown variant or a shop in another currency is a refusal", () =>
    Effect.gen(function* () {
      const { store } = yield* seeded
      const unknown = yield* store.deliver(connection, writeBack({ storeVariantRef: "999" }))
      assert.include(unknown._tag === "Rejected" ? unknown.message : "", "does not exist")
      const euros = yield* store.deliver(connection, writeBack({ currency: CurrencyCode.make("EUR") }))
      assert.include(euros._tag === "Rejected" ? euros.message : "", "prices in USD")
    }).pipe(Effect.provide(shopifyStoreOverFake()))
  )

  it.live("prices cross the wire in major units of the shop's currency (JPY has none after the point)", () =>
    Effect.gen(function* () {
      const { fake, store } = yield* seeded
      yield* fake.setPrice(variant, "1500")
      const yen = writeBack({
        storeVariantRef: "101",
        currency: CurrencyCode.make("JPY"),
        oldPrice: 1500,
        newPrice: 1600
      })
      assert.deepStrictEqual(yield* store.deliver(connection, yen), { _tag: "Applied" })
      assert.strictEqual(yield* fake.price(variant), "1600")
    }).pipe(Effect.provide(shopifyStoreOverFake({ fake: { currencyCode: "JPY" } })))
  )
})

describe("shopDomain", () => {
  it("accepts a shop name or its myshopify.com domain, nothing else", () => {
    assert.deepStrictEqual(shopDomain("Acme"), Result.succeed("acme.myshopify.com"))
    assert.deepStrictEqual(shopDomain("acme.myshopify.com"), Result.succeed("acme.myshopify.com"))
    assert.isTrue(Result.isFailure(shopDomain("acme.example.com")))
    assert.isTrue(Result.isFailure(shopDomain("127.0.0.1:8080/x")))
  })
})
