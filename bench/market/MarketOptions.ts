// The bench's flags: the seed and the sizes, so that anyone can try other markets.
import { parseArgs } from "node:util"
import type { SimulationOptions } from "./Simulation.ts"

export const shopKinds = ["engine", "use-cases"] as const
export type ShopKind = (typeof shopKinds)[number]

export interface MarketOptions extends SimulationOptions {
  /** How the service is driven: the pure engine, or the use cases over the memory adapters. */
  readonly via: ShopKind
}

export const defaultMarketOptions: MarketOptions = { seed: 28, items: 10_000, categories: 8, cycles: 6, via: "engine" }

export const usage = `usage: npm run bench:market -- [options]
  --seed <n>        the market's seed (default ${defaultMarketOptions.seed}); the same seed gives the same figures
  --items <n>       catalog items (default ${defaultMarketOptions.items.toLocaleString("en-US")})
  --categories <n>  categories, each with its own true elasticity in [-4.0, -1.2] (default ${defaultMarketOptions.categories})
  --cycles <n>      runs, each followed by 30 days of demand (default ${defaultMarketOptions.cycles})
  --via <how>       engine: the pure analyseCatalog with the repository's history rule (default);
                    use-cases: runs, approvals and imports over the in-memory adapters (slower)
  --help            this text`

const flags = {
  seed: { type: "string" },
  items: { type: "string" },
  categories: { type: "string" },
  cycles: { type: "string" },
  via: { type: "string" },
  help: { type: "boolean" }
} as const

/** The options, or the reason they are wrong (null for --help). */
export const parseMarketOptions = (args: ReadonlyArray<string>): MarketOptions | string | null => {
  const parsed = parseArgs({ args: [...args], strict: false, options: flags })
  const { values, positionals } = parsed
  if (values.help === true) return null
  if (positionals.length > 0) return `unexpected argument "${positionals[0]}"`
  // Not strict, so that a wrong flag gets this answer rather than a stack trace.
  const unknown = Object.keys(values).find((name) => !(name in flags))
  if (unknown !== undefined) return `unknown flag --${unknown}`
  const integer = (name: "seed" | "items" | "categories" | "cycles", min: number): number => {
    const raw = values[name]
    if (raw === undefined) return defaultMarketOptions[name]
    const n = Number(raw)
    return typeof raw === "string" && Number.isSafeInteger(n) && n >= min ? n : Number.NaN
  }
  const seed = integer("seed", 0)
  const items = integer("items", 1)
  const categories = integer("categories", 1)
  const cycles = integer("cycles", 1)
  const wrong = Object.entries({ seed, items, categories, cycles }).find(([, value]) => Number.isNaN(value))
  if (wrong !== undefined) return `--${wrong[0]} must be a whole number${wrong[0] === "seed" ? "" : " of at least 1"}`
  const via = values.via ?? defaultMarketOptions.via
  const kind = shopKinds.find((candidate) => candidate === via)
  if (kind === undefined) return `--via must be one of ${shopKinds.join(", ")}`
  return { seed, items, categories, cycles, via: kind }
}
