// The fake Shopify of bench/sync.ts in its own process, so that the shop's variants, orders and its JSONL
// writer do not count in the RSS of the process that syncs.
// Usage: node bench/FakeShopifyServer.ts <variants> <orders a year>
// Prints its URL on the first line of stdout, then answers "ok" to each command line on stdin:
//   bucket <maximum> <restore rate>     the shop's rate-limit bucket, full
//   bump <round> <count>                <count> variants spread over the shop get a new price, updated now
//   orders <count>                      <count> orders change now: nine in ten new, one in ten an old order refunded
import { createInterface } from "node:readline"
import { NodeRuntime } from "@effect/platform-node"
import { FakeShopify } from "@margin/stores/testing/FakeShopify"
import { Effect, Stream } from "effect"
import { benchOrder, benchOrderId, benchVariant, benchVariantId } from "./SyncShop.ts"

const size = Number(process.argv[2])
const ordersAYear = Number(process.argv[3] ?? 0)
const year = 365 * 24 * 60 * 60 * 1000

const program = Effect.gen(function* () {
  const fake = yield* FakeShopify
  const created = Date.now() - 24 * 60 * 60 * 1000
  yield* fake.setVariants(
    new Map(
      Array.from({ length: size }, (_, index) => [benchVariantId(index + 1), benchVariant(index + 1, created, "19.99")])
    )
  )
  // A year of orders, evenly spread over the last 363 days, the last an hour ago.
  const start = Date.now()
  const placed = (n: number) =>
    start - 60 * 60 * 1000 - Math.floor(((ordersAYear - n) * (year - 2 * 24 * 60 * 60 * 1000)) / ordersAYear)
  yield* fake.setOrders(
    new Map(
      Array.from({ length: ordersAYear }, (_, index) => [
        benchOrderId(index + 1),
        benchOrder(index + 1, size, placed(index + 1))
      ])
    )
  )
  let nextOrder = ordersAYear + 1
  process.stdout.write(`${fake.url}\n`)
  // One command a line, in order, until stdin closes.
  yield* Stream.fromAsyncIterable(createInterface({ input: process.stdin }), (error) => error).pipe(
    Stream.runForEach((line) => {
      const [command, a = "0", b = "0"] = line.trim().split(" ")
      const run =
        command === "bucket"
          ? fake.setBucket({ maximumAvailable: Number(a), currentlyAvailable: Number(a), restoreRate: Number(b) })
          : command === "orders"
            ? Effect.gen(function* () {
                const now = Date.now()
                const count = Number(a)
                for (let n = 0; n < count; n++) {
                  if (n % 10 === 9) {
                    // A refund of an old order: its first line's unit comes back, the order is updated now.
                    const old = 1 + Math.floor((n * ordersAYear) / count)
                    const order = benchOrder(old, size, placed(old), now)
                    const first = order.lineItems[0]
                    yield* fake.setOrder(benchOrderId(old), {
                      ...order,
                      refunds: first === undefined ? [] : [[{ lineItemId: first.id, quantity: 1 }]]
                    })
                  } else {
                    const id = nextOrder++
                    yield* fake.setOrder(benchOrderId(id), benchOrder(id, size, now))
                  }
                }
              })
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
