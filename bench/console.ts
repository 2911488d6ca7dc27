// The console's first page, measured: the server and the console in this process over the memory
// adapters, a workspace with 50 recommendations, an owner signed in by e-mail link in headless
// Chromium; then the queue (the page /app lands on) loaded cold (a fresh context, empty cache)
// and warm, N times each, and the recommendation page (which adds the chart library). Prints the
// navigation timings (p50 / max) and the bytes transferred, per file, as the browser counts them.
// Usage: npm run bench:console [-- <loads>]   (default 20)
import { NodeRuntime } from "@effect/platform-node"
import { assetSizes } from "@margin/console"
import { aWorkspaceWithOwner, seedRecommendation } from "@margin/edge/testing/World"
import * as ConsoleTestServer from "@margin/runtime/testing/ConsoleTestServer"
import { browser, browserInstalled, executablePath, promise, signIn } from "@margin/runtime/testing/HeadlessChromium"
import { Console, Effect } from "effect"
import type { Browser, Page } from "playwright-core"

const loads = Number(process.argv[2] ?? 20)
if (!Number.isSafeInteger(loads) || loads <= 0) {
  console.error(`usage: node bench/console.ts [loads], got "${process.argv.slice(2).join(" ")}"`)
  process.exit(2)
}
if (!browserInstalled) {
  console.error(`bench:console needs Chromium at ${executablePath} (apt-get install chromium)`)
  process.exit(2)
}

interface Load {
  readonly ttfb: number
  readonly domContentLoaded: number
  readonly load: number
  /** Per file: name and bytes over the wire (headers included), as Resource Timing reports them. */
  readonly files: ReadonlyArray<readonly [string, number]>
}

/** The page's navigation and resource timings, read in the page after its load event. */
const measure = `(() => {
  const [nav] = performance.getEntriesByType("navigation")
  const files = [[location.pathname, nav.transferSize], ...performance.getEntriesByType("resource").map((r) => [new URL(r.name).pathname, r.transferSize])]
  return { ttfb: nav.responseStart - nav.startTime, domContentLoaded: nav.domContentLoadedEventEnd - nav.startTime, load: nav.loadEventEnd - nav.startTime, files }
})()`

const loadOnce = (page: Page, url: string) =>
  Effect.gen(function* () {
    yield* promise(() => page.goto(url, { waitUntil: "load" }))
    return yield* promise(() => page.evaluate<Load>(measure))
  })

const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}
const ms = (value: number) => `${value.toFixed(1)} ms`
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`

const report = (label: string, runs: ReadonlyArray<Load>) =>
  Effect.gen(function* () {
    const stat = (pick: (load: Load) => number) => {
      const values = runs.map(pick)
      return `p50 ${ms(percentile(values, 50))}, max ${ms(Math.max(...values))}`
    }
    const first = runs[0]
    const total = first === undefined ? 0 : first.files.reduce((sum, [, bytes]) => sum + bytes, 0)
    yield* Console.log(`${label} (${runs.length} loads)`)
    yield* Console.log(`  time to first byte   ${stat((load) => load.ttfb)}`)
    yield* Console.log(`  DOMContentLoaded     ${stat((load) => load.domContentLoaded)}`)
    yield* Console.log(`  load                 ${stat((load) => load.load)}`)
    yield* Console.log(
      `  transferred          ${kb(total)}: ${(first?.files ?? []).map(([name, bytes]) => `${name.split("/").at(-1)} ${kb(bytes)}`).join(", ")}`
    )
  })

/** A fresh context with the signed-in cookies: cold cache, same session. */
const coldPage = (opened: Browser, cookies: Parameters<import("playwright-core").BrowserContext["addCookies"]>[0]) =>
  Effect.acquireRelease(
    promise(async () => {
      const context = await opened.newContext()
      await context.addCookies(cookies)
      return context
    }),
    (context) => promise(() => context.close())
  ).pipe(Effect.flatMap((context) => promise(() => context.newPage())))

const program = Effect.gen(function* () {
  const origin = yield* ConsoleTestServer.origin
  const { workspace, owner } = yield* aWorkspaceWithOwner()
  const seeded = []
  for (let index = 0; index < 50; index += 1) {
    seeded.push(
      yield* seedRecommendation(workspace, {
        status: index % 2 === 0 ? "pending_approval" : "new",
        acceptedAt: 1,
        elasticity: -1.3,
        elasticityInterval: [-1.9, -0.7],
        expectedMonthlyImpact: 1000 + index * 37
      })
    )
  }
  const opened = yield* browser
  const context = yield* Effect.acquireRelease(
    promise(() => opened.newContext()),
    (made) => promise(() => made.close())
  )
  const page = yield* promise(() => context.newPage())
  yield* signIn(page, origin, owner.user.email)
  const cookies = yield* promise(() => context.cookies())
  const queue = `${origin}/app/w/${workspace.id}/recommendations`
  const detail = `${queue}/${seeded[0]?.id ?? ""}`

  yield* Console.log(
    `console first page: ${loads} loads each, node ${process.version}, headless Chromium, memory adapters`
  )
  yield* Console.log(
    `  assets as stored (plain / brotli): ${[...assetSizes()].map(([name, size]) => `${name} ${kb(size.plain)} / ${kb(size.br)}`).join(", ")}`
  )
  const cold: Array<Load> = []
  for (let index = 0; index < loads; index += 1) {
    cold.push(yield* Effect.scoped(Effect.flatMap(coldPage(opened, cookies), (fresh) => loadOnce(fresh, queue))))
  }
  yield* report("queue, cold cache (50 recommendations)", cold)
  const warm: Array<Load> = []
  for (let index = 0; index < loads; index += 1) warm.push(yield* loadOnce(page, queue))
  yield* report("queue, warm cache", warm)
  const chart: Array<Load> = []
  for (let index = 0; index < loads; index += 1) {
    chart.push(yield* Effect.scoped(Effect.flatMap(coldPage(opened, cookies), (fresh) => loadOnce(fresh, detail))))
  }
  yield* report("recommendation page with the chart, cold cache", chart)
}).pipe(Effect.scoped, Effect.provide(ConsoleTestServer.layer()))

NodeRuntime.runMain(program)
