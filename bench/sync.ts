// Store sync at scale: a Shopify shop of 100,000 variants (the fake Shopify over real HTTP on loopback) into a
// catalog on PostgreSQL, through the StoreSyncs use case and the Shopify adapter.
// Usage: npm run bench:sync [-- <variants> [<changed share> [<orders a year>]]]
//   (default 100,000 variants, 0.01 changed, 120,000 orders a year: ~330 a day, 1 to 3 lines each)
// In a fresh database on DATABASE_URL, else PG_TEST_URL, else postgres://postgres@127.0.0.1:5432/test (dropped
// afterwards); the fake shop runs in its own process (bench/FakeShopifyServer.ts), so the RSS is the syncing
// process's alone:
//   - full sync: bulkOperationRunQuery, polls of node(id:) every 100 ms (the fake completes its operation in
//     50 ms: Shopify's own time to run the operation is not ours to measure), the JSONL streamed from the
//     fake's URL, 100,000 items created in batches of 2,000, one transaction; then the orders: a second bulk
//     operation over 12 months of orders, its JSONL (an order's line, then its line items') streamed into
//     the sales history, and every item sold recounted (units_sold_30d, a point per 30-day period);
//   - incremental sync of the changed share: productVariants pages of 250 with `updated_at:>`, and as many
//     orders changed (the same share of a year's orders: nine in ten new, one in ten refunded) read in pages
//     of 10 orders (requested cost 892, charged what they hold), at Shopify Plus' rate limit (bucket 20,000
//     points, restored at 1,000/s), then a standard plan's (2,000 at 100/s); the items sold in the last 30
//     days are recounted.
// Prints the time of each, the items it created or changed, and this process's peak RSS over each. npm runs it
// with V8's old space capped at 192 MB (as a worker would be): without a cap V8 lets garbage grow the RSS
// (373 MB measured) though the live data stays under 100 MB (a 100 MB cap still completes, slowly).

import { type ChildProcess, spawn } from "node:child_process"
import { loadavg } from "node:os"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { NodeHttpClient, NodeRuntime, NodeServices } from "@effect/platform-node"
import { AuditTrail } from "@margin/core/audit/AuditTrail"
import { WorkspaceId } from "@margin/core/kernel/Ids"
import { defaultPricingPolicy } from "@margin/core/pricing/PricingPolicy"
import { StoreConnectionRepository } from "@margin/core/stores/StoreConnectionRepository"
import { StoreCredentials } from "@margin/core/stores/StoreCredentials"
import type { StoreSalesSummary } from "@margin/core/stores/StoreSyncState"
import { defaultStoreSyncOptions, StoreSyncs } from "@margin/core/stores/StoreSyncs"
import { WorkspaceRepository } from "@margin/core/workspaces/WorkspaceRepository"
import * as ScratchDatabase from "@margin/runtime/testing/ScratchDatabase"
import { ShopifyCatalogSource, ShopifyConfig, StoreCatalogRouter } from "@margin/stores"
import { fakeShop, fakeShopifyDefaults } from "@margin/stores/testing/FakeShopify"
import { Duration, Effect, Layer, Logger, Option } from "effect"
import { timed, withPeakRss } from "./Measure.ts"

const size = Number(process.argv[2] ?? 100_000)
const changedShare = Number(process.argv[3] ?? 0.01)
const ordersAYear = Number(process.argv[4] ?? 120_000)
if (
  !Number.isSafeInteger(size) ||
  size <= 0 ||
  !(changedShare > 0 && changedShare <= 1) ||
  !Number.isSafeInteger(ordersAYear) ||
  ordersAYear < 0
) {
  console.error(`usage: node bench/sync.ts [variants] [changed share], got "${process.argv.slice(2).join(" ")}"`)
  process.exit(2)
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`

/** `effect` timed, with this process's peak RSS meanwhile. */
const measured = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(withPeakRss(timed(effect)), ({ value, peakRss }) => ({ ...value, peakRss }))

const operator = { _tag: "SystemActor", name: "bench" } as const

const salesLine = (sales: StoreSalesSummary | undefined) =>
  sales === undefined
    ? "no orders read"
    : `${sales.lines.toLocaleString("en-US")} order lines, ${sales.itemsUpdated.toLocaleString("en-US")} items' sales updated, ${sales.itemsUnchanged.toLocaleString("en-US")} unchanged`

/** The fake shop in its own process: its URL, and a command line that answers once done. */
const fakeShopProcess = Effect.acquireRelease(
  Effect.callback<{
    readonly url: string
    readonly command: (line: string) => Effect.Effect<void>
    readonly child: ChildProcess
  }>((resume) => {
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL("./FakeShopifyServer.ts", import.meta.url)), String(size), String(ordersAYear)],
      {
        stdio: ["pipe", "pipe", "inherit"]
      }
    )
    const answers = createInterface({ input: child.stdout })
    const waiting: Array<(line: string) => void> = []
    answers.on("line", (line: string) => waiting.shift()?.(line))
    waiting.push((url) =>
      resume(
        Effect.succeed({
          url,
          child,
          command: (line: string) =>
            Effect.callback<void>((done) => {
              waiting.push(() => done(Effect.void))
              child.stdin.write(`${line}\n`)
            })
        })
      )
    )
  }),
  ({ child }) => Effect.sync(() => void child.kill())
)

const program = Effect.gen(function* () {
  const shop = yield* fakeShopProcess
  const workspaceId = WorkspaceId.make(`ws_bench_sync_${size}`)
  yield* WorkspaceRepository.use((workspaces) =>
    workspaces.insert({
      id: workspaceId,
      name: `Sync bench ${size}`,
      plan: "enterprise",
      lifecycleState: "active",
      pricingPolicy: defaultPricingPolicy,
      trialEndsAt: null,
      createdAt: 0
    })
  )
  yield* StoreConnectionRepository.use((connections) =>
    connections.connect(
      { workspaceId, platform: "shopify", shop: fakeShop, status: "connected", connectedAt: Date.now() },
      null
    )
  )
  console.log(
    `store sync of a ${size.toLocaleString("en-US")}-variant Shopify shop with ${ordersAYear.toLocaleString("en-US")} orders over 12 months (fake, its own process, loopback) into PostgreSQL; RSS before ${mb(process.memoryUsage.rss())}; load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(" ")}`
  )
  const syncs = yield* Layer.build(syncsOver(shop.url))
  const sync = StoreSyncs.use((use) => use.sync({ workspaceId, trigger: "manual", actor: operator })).pipe(
    Effect.provideContext(syncs)
  )

  const full = yield* measured(sync)
  console.log(
    `  full sync (two bulk operations, JSONL streamed): ${seconds(full.ms)}, ${full.value.summary.created.toLocaleString("en-US")} created, ${full.value.summary.rejectedTotal} rejected; ${salesLine(full.value.sales)}; peak RSS ${mb(full.peakRss)}; load average ${loadavg()[0]?.toFixed(2)}`
  )

  const changed = Math.round(size * changedShare)
  const ordersChanged = Math.round(ordersAYear * changedShare)
  // Plus first: the adapter's model of the bucket starts from what the shop answers, never from the other plan.
  for (const [round, plan, maximum, rate] of [
    [1, "Shopify Plus (20,000 points, 1,000/s)", 20000, 1000],
    [2, "standard plan (2,000 points, 100/s)", 2000, 100]
  ] as const) {
    yield* shop.command(`bucket ${maximum} ${rate}`)
    yield* shop.command(`bump ${round} ${changed}`)
    yield* shop.command(`orders ${ordersChanged}`)
    const incremental = yield* measured(sync)
    const s = incremental.value.summary
    console.log(
      `  incremental sync of ${changed.toLocaleString("en-US")} changed variants and ${ordersChanged.toLocaleString("en-US")} changed orders, ${plan}: ${seconds(incremental.ms)}, ${s.priceChanged} price changed, ${s.unchanged} unchanged; ${salesLine(incremental.value.sales)}; peak RSS ${mb(incremental.peakRss)}; load average ${loadavg()[0]?.toFixed(2)}`
    )
  }
}).pipe(Effect.scoped)

/** The use case over the Shopify reader pointed at the fake's process. */
const syncsOver = (url: string) =>
  StoreSyncs.layerWith(defaultStoreSyncOptions).pipe(
    Layer.provide(AuditTrail.layer),
    Layer.provide(StoreCatalogRouter.forPlatform(ShopifyCatalogSource)),
    Layer.provide(ShopifyCatalogSource.layer),
    Layer.provide([
      ShopifyConfig.layerWith({
        baseUrl: Option.some(url),
        bulkPollInterval: Duration.millis(100),
        maxPacingWait: Duration.seconds(30)
      }),
      StoreCredentials.layerStatic({ [fakeShop]: fakeShopifyDefaults.accessToken }),
      NodeHttpClient.layerUndici
    ])
  )

program.pipe(
  Effect.provide(ScratchDatabase.layer),
  Effect.provide(NodeServices.layer),
  Effect.provide(Logger.layer([])),
  NodeRuntime.runMain
)
