// The fake Shopify of bench/sync.ts in its own process, so that the shop's variants and its JSONL writer do
// not count in the RSS of the process that syncs. Usage: node bench/FakeShopifyServer.ts <variants>
// Prints its URL on the first line of stdout, then answers "ok" to each command line on stdin:
//   bucket <maximum> <restore rate>     the shop's rate-limit bucket, full
//   bump <round> <count>                <count> variants spread over the shop get a new price, updated now
import { createInterface } from "node:readline"
import { NodeRuntime } from "@effect/platform-node"
import { FakeShopify } from "@margin/stores/testing/FakeShopify"
import { Effect, Stream } from "effect"
import { benchVariant, benchVariantId } from "./SyncShop.ts"

const size = Number(process.argv[2])

const program = Effect.gen(function* () {
  const fake = yield* FakeShopify
  const created = Date.now() - 24 * 60 * 60 * 1000
  yield* fake.setVariants(
    new Map(
      Array.from({ length: size }, (_, index) => [benchVariantId(index + 1), benchVariant(index + 1, created, "19.99")])
    )
  )
  process.stdout.write(`${fake.url}\n`)
  // One command a line, in order, until stdin closes.
  yield* Stream.fromAsyncIterable(createInterface({ input: process.stdin }), (error) => error).pipe(
    Stream.runForEach((line) => {
      const [command, a = "0", b = "0"] = line.trim().split(" ")
      const run =
        command === "bucket"
          ? fake.setBucket({ maximumAvailable: Number(a), currentlyAvailable: Number(a), restoreRate: Number(b) })
          : Effect.gen(function* () {
              const now = Date.now()
              const count = Number(b)
              for (let n = 0; n < count; n++) {
                const number = 1 + Math.floor((n * size) / count)
                yield* fake.setVariant(benchVariantId(number), benchVariant(number, now, `${20 + Number(a)}.49`))
              }
            })
      return Effect.andThen(
        run,
        Effect.sync(() => process.stdout.write("ok\n"))
      )
    }),
    Effect.orDie
  )
})

program.pipe(Effect.provide(FakeShopify.layer()), Effect.scoped, NodeRuntime.runMain)
