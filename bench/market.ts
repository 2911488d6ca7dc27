// The simulated market of issues 28 and 40: does the engine's advice earn a merchant money, against a
// market whose truth is known, tidy or with what real stores have (bending demand, seasons, cost
// changes, competitors, new and thin items, a long horizon)? See docs/pricing.md, "The simulated market".
// Usage: npm run bench:market [-- --switches all --seeds 1,2,3 --items 10000 ...] (--help)
import { loadavg } from "node:os"
import { NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import { summarise } from "./market/ArmSummary.ts"
import { openEngineShop } from "./market/EngineShop.ts"
import { type FormRow, formsTable, rangeLines } from "./market/FormsTable.ts"
import { parseMarketOptions, usage } from "./market/MarketOptions.ts"
import { reportLines } from "./market/MarketReport.ts"
import { formName } from "./market/MarketSwitches.ts"
import { marketShape, simulate } from "./market/Simulation.ts"
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
    `simulated market: ${options.forms.length} forms × seeds ${options.seeds.join(", ")}, ${options.items.toLocaleString("en-US")} items in ${options.categories} categories, ` +
      `${options.cycles} cycles (12 with long), via ${options.via === "engine" ? "the pure engine (analyseCatalog)" : "the use cases over the memory adapters"}, node ${process.version}`
  )
  for (const arm of options.arms) console.log(`  arm ${arm.name}: ${JSON.stringify(arm.policy)}`)
  const rows: Array<FormRow> = []
  for (const switches of options.forms) {
    for (const seed of options.seeds) {
      const begun = performance.now()
      const simulation = { ...options, seed, switches }
      const result = yield* simulate(simulation, options.via === "engine" ? openEngineShop : openUseCaseShop)
      const seconds = (performance.now() - begun) / 1000
      const form = formName(switches)
      if (options.detail) {
        console.log("")
        console.log(`form ${form}, seed ${seed}, ${marketShape(simulation).cycles} cycles:`)
        for (const line of reportLines(result)) console.log(line)
      }
      for (const arm of result.arms) rows.push({ form, seed, summary: summarise(result, arm.name), seconds })
    }
  }
  console.log("")
  console.log(
    "capture: share of the oracle's uplift; harm: adopted recommendations that lose money (true expected profit of the period);"
  )
  console.log(
    "outside rest.: the same outside guardrail restorations; rest. (harm): restorations and the harmful among them; bias: mean"
  )
  console.log(
    "(estimate − true local elasticity); coverage: share of moves whose interval holds it; targets: >= 80 % and <= 5 % outside"
  )
  console.log("restorations (tidy: 88 % and 3 %) and no category below doing nothing after cycle 2.")
  for (const line of formsTable(rows)) console.log(line)
  if (options.seeds.length > 1) {
    console.log("")
    console.log("Over the seeds:")
    for (const line of rangeLines(rows)) console.log(line)
  }
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(", ")
  console.log("")
  console.log(`wall time ${((performance.now() - started) / 1000).toFixed(1)} s; load average ${load} (1, 5, 15 min)`)
})

NodeRuntime.runMain(program)
