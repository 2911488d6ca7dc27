import { assert, describe, it } from "@effect/vitest"
import {
  type ClientMetadataDocument,
  ClientMetadataDocuments,
  type ClientMetadataUnavailable
} from "@margin/core/oauth/ClientMetadataDocuments"
import { Effect, Fiber, Ref } from "effect"
import { TestClock } from "effect/testing"
import { cached, documentFetchBudget, maxAgeOf } from "./CachedClientMetadataDocuments.ts"

/** A source of documents that counts its fetches; each document cacheable for `maxAgeSeconds`. */
const counting = (maxAgeSeconds: number) =>
  Effect.map(Ref.make(0), (fetches) => ({
    fetches,
    inner: ClientMetadataDocuments.of({
      fetch: (url) =>
        Effect.gen(function* () {
          yield* Ref.update(fetches, (count) => count + 1)
          yield* Effect.sleep("10 millis")
          const document: ClientMetadataDocument = {
            clientId: url,
            clientName: "Agent",
            redirectUris: ["http://127.0.0.1:9/cb"],
            tokenEndpointAuthMethod: undefined,
            maxAgeSeconds
          }
          return document
        })
    })
  }))

/** `effect` run while the test clock passes the source's 10 ms: its exit. */
const settled = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.forkChild(effect)
    yield* TestClock.adjust("10 millis")
    return yield* Fiber.await(fiber)
  })

const reasonOf = (effect: Effect.Effect<unknown, ClientMetadataUnavailable>) =>
  Effect.map(Effect.flip(effect), (failure) => failure.reason)

describe("CachedClientMetadataDocuments", () => {
  it.effect("100 parallel reads of one document fetch it once", () =>
    Effect.gen(function* () {
      const { fetches, inner } = yield* counting(0)
      const documents = yield* cached(inner)
      const fiber = yield* Effect.forkChild(
        Effect.forEach(
          Array.from({ length: 100 }, () => "https://agent.example/client.json"),
          (url) => documents.fetch(url),
          { concurrency: "unbounded" }
        )
      )
      yield* TestClock.adjust("10 millis")
      const read = yield* Fiber.await(fiber)
      assert.strictEqual(read._tag, "Success")
      assert.strictEqual(yield* Ref.get(fetches), 1)
    })
  )

  it.effect("a document is kept as long as its Cache-Control max-age says, then fetched again", () =>
    Effect.gen(function* () {
      const { fetches, inner } = yield* counting(300)
      const documents = yield* cached(inner)
      const read = (url: string) => settled(documents.fetch(url))
      for (let n = 0; n < 5; n++) yield* read("https://agent.example/client.json")
      assert.strictEqual(yield* Ref.get(fetches), 1)
      yield* TestClock.adjust("301 seconds")
      yield* read("https://agent.example/client.json")
      assert.strictEqual(yield* Ref.get(fetches), 2)
    })
  )

  it.effect("fetches are budgeted per document and in all, per minute", () =>
    Effect.gen(function* () {
      const { fetches, inner } = yield* counting(0)
      const documents = yield* cached(inner)
      const read = (url: string) => settled(documents.fetch(url))
      const one = "https://agent.example/client.json"
      for (let n = 0; n < documentFetchBudget.perDocumentPerMinute; n++) {
        assert.strictEqual((yield* read(one))._tag, "Success")
      }
      assert.match(yield* reasonOf(documents.fetch(one)), /fetched too often/)
      for (let n = 1; n < documentFetchBudget.perMinute - documentFetchBudget.perDocumentPerMinute + 1; n++) {
        assert.strictEqual((yield* read(`https://agent${n}.example/client.json`))._tag, "Success", String(n))
      }
      assert.match(yield* reasonOf(documents.fetch("https://late.example/client.json")), /too many client documents/)
      assert.strictEqual(yield* Ref.get(fetches), documentFetchBudget.perMinute)
      // A minute later both budgets are whole again.
      yield* TestClock.adjust("1 minute")
      assert.strictEqual((yield* read(one))._tag, "Success")
    })
  )

  it("max-age from Cache-Control: no-store and no-cache keep nothing; at most a day", () => {
    const table: ReadonlyArray<readonly [string | undefined, number]> = [
      [undefined, 0],
      ["max-age=300", 300],
      ["public, max-age=60", 60],
      ["Max-Age=120, must-revalidate", 120],
      ["no-store, max-age=300", 0],
      ["no-cache", 0],
      ["max-age=-5", 0],
      ["max-age=abc", 0],
      ["max-age=99999999", 86_400]
    ]
    for (const [header, seconds] of table) assert.strictEqual(maxAgeOf(header), seconds, String(header))
  })
})
