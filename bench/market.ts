// The simulated market of issue 28: does the engine's advice earn a merchant money, against a market
// whose truth is known? See docs/pricing.md, "The simulated market".
// Usage: npm run bench:market [-- --seed 28 --items 10000 --categories 8 --cycles 6 --via engine] (--help)
import { loadavg } from "node:os"
import { NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import { openEngineShop } from "./market/EngineShop.ts"
import { parseMarketOptions, usage } from "./market/MarketOptions.ts"
import { reportLines } from "./market/MarketReport.ts"
import { simulate } from "./market/Simulation.ts"
import { openUseCaseShop } from "./market/UseCaseShop.ts"

const options = parseMarketOptions(process.argv.slice(2))
if (options === null) {
  console.log(usage)
  process.exit(0)
}
if (typeof options === "string") {
  console.error(`${options}\n${usage}`)
  process.exit(2)
}

const program = Effect.gen(function* () {
  const started = performance.now()
  console.log(
    `simulated market: seed ${options.seed}, ${options.items.toLocaleString("en-US")} items in ${options.categories} categories, ` +
      `${options.cycles} cycles, via ${options.via === "engine" ? "the pure engine (analyseCatalog)" : "the use cases over the memory adapters"}, node ${process.version}`
  )
  const result = yield* simulate(options, options.via === "engine" ? openEngineShop : openUseCaseShop)
  console.log("")
  for (const line of reportLines(result)) console.log(line)
  console.log("")
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(", ")
  console.log(`wall time ${((performance.now() - started) / 1000).toFixed(1)} s; load average ${load} (1, 5, 15 min)`)
})

NodeRuntime.runMain(program)
